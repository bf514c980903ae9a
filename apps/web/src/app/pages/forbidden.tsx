import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { HOME_PATH } from '@/lib/constants';

/** Shown in place of a page the user's role may not open (the server refuses its data too). */
export function Forbidden() {
  const { t } = useTranslation();
  return (
    <div data-testid="forbidden">
    <Result
      status="403"
      title="403"
      subTitle={t('common.forbidden.description')}
      extra={
        <Link to={HOME_PATH}>
          <Button type="primary">{t('common.backHome')}</Button>
        </Link>
      }
    />
    </div>
  );
}
