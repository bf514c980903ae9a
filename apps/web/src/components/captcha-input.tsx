import { ReloadOutlined } from '@ant-design/icons';
import { Input, Spin, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';

export interface CaptchaInputProps {
  value?: string;
  onChange?: (value: string) => void;
  /** Image source of the current captcha (data URL), null while none is loaded. */
  src: string | null;
  loading?: boolean;
  failed?: boolean;
  onRefresh: () => void;
  id?: string;
}

/** Text field with the captcha picture beside it; clicking the picture fetches a new one. */
export function CaptchaInput({ value, onChange, src, loading, failed, onRefresh, id }: CaptchaInputProps) {
  const { t } = useTranslation();
  return (
    <div className="captcha-input">
      <Input
        id={id}
        value={value}
        onChange={(e) => onChange?.(e.target.value)}
        placeholder={t('common.captcha.placeholder')}
        maxLength={12}
        autoComplete="off"
        size="large"
      />
      <Tooltip title={t('common.captcha.refresh')}>
        <button type="button" className="captcha-input__image" onClick={onRefresh} aria-label={t('common.captcha.refresh')} data-testid="captcha-image">
          {src && !loading ? (
            <img src={src} alt={t('common.captcha.alt')} />
          ) : loading ? (
            <Spin size="small" />
          ) : (
            <span className="captcha-input__retry">
              <ReloadOutlined /> {failed ? t('common.captcha.failed') : null}
            </span>
          )}
        </button>
      </Tooltip>
    </div>
  );
}
