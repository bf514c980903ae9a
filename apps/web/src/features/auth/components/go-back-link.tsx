import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ArrowLeftOutlined, Icon } from '@/components/lite/icons';
import { LiteButton } from '@/components/lite/lite-button';

/** Back to the previous page of this tab, or to `fallback` when the console was opened here. */
export function GoBackLink({ fallback }: { fallback: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const back = () => {
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (idx > 0) void navigate(-1);
    else void navigate(fallback);
  };
  return (
    <LiteButton variant="link" icon={<Icon icon={ArrowLeftOutlined} />} onClick={back} className="go-back-link" data-testid="go-back">
      {t('auth.goBack')}
    </LiteButton>
  );
}
