import { useTranslation } from 'react-i18next';
import { Icon, LoadingOutlined, ReloadOutlined } from './icons';
import { TextInput } from './text-input';

/** components/captcha-input.tsx for the pages drawn without antd: the field, the picture beside it (a click renews it). */
export function LiteCaptchaInput({
  id,
  value,
  onChange,
  invalid,
  src,
  loading,
  failed,
  onRefresh,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  invalid?: boolean;
  src: string | null;
  loading?: boolean;
  failed?: boolean;
  onRefresh: () => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="captcha-input">
      <TextInput id={id} value={value} onChange={onChange} invalid={invalid} placeholder={t('common.captcha.placeholder')} maxLength={12} autoComplete="off" />
      <button
        type="button"
        className="captcha-input__image"
        onClick={onRefresh}
        aria-label={t('common.captcha.refresh')}
        title={t('common.captcha.refresh')}
        data-testid="captcha-image"
      >
        {src && !loading ? (
          <img src={src} alt={t('common.captcha.alt')} />
        ) : loading ? (
          <Icon icon={LoadingOutlined} spin className="captcha-input__loading" />
        ) : (
          <span className="captcha-input__retry">
            <Icon icon={ReloadOutlined} /> {failed ? t('common.captcha.failed') : null}
          </span>
        )}
      </button>
    </div>
  );
}
