import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { HOME_PATH } from '@/lib/constants';

export default function NotFound() {
  const { t } = useTranslation();
  return (
    <Result
      status="404"
      title="404"
      subTitle={t('common.notFound.description')}
      extra={
        <Link to={HOME_PATH}>
          <Button type="primary">{t('common.backHome')}</Button>
        </Link>
      }
    />
  );
}
