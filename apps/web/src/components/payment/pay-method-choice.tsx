import type { PayMethod } from '@resi/contract';
import { Alert, Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSite } from '@/api/get-site';
import { QueryError, type QueryLike } from '@/components/query-state';
import { PayMethodPicker } from './pay-method-picker';

/**
 * "Choose a payment method" in a checkout (traffic, static IPs, renewals): the methods checkout offers,
 * the error with a retry when they could not be loaded, or what to do when none is enabled.
 */
export function PayMethodChoice({ query, value, onChange }: { query: QueryLike<readonly PayMethod[]>; value: PayMethod | undefined; onChange: (method: PayMethod) => void }) {
  const { t } = useTranslation();
  const site = useSite();
  const methods = query.isError ? [] : (query.data ?? []);
  return (
    <>
      <Typography.Title level={5} className="checkout__section-title">
        {t('buy.checkout.chooseMethod')}
      </Typography.Title>
      {query.isError ? (
        <QueryError query={query} title={t('buy.checkout.methodsFailed')} />
      ) : methods.length > 0 ? (
        <PayMethodPicker methods={methods} value={value} onChange={onChange} />
      ) : query.isPending ? (
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : (
        <Alert
          type="warning"
          showIcon
          title={t('buy.checkout.noMethods')}
          description={
            <>
              {t('buy.checkout.noMethodsHint')}{' '}
              {site.supportUrl ? (
                <a href={site.supportUrl} target="_blank" rel="noopener noreferrer">
                  {t('tips.supportLink')}
                </a>
              ) : null}
            </>
          }
          data-testid="no-pay-methods"
        />
      )}
    </>
  );
}
