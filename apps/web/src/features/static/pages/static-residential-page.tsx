import type { StaticProxyDto } from '@resi/contract';
import { Col, Modal, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { goodsQueryOptions } from '@/api/get-goods';
import { useStaticKeyPrefix } from '@/api/extract-key';
import { payMethodsQueryOptions } from '@/api/get-pay-methods';
import { AllowlistEditor } from '@/components/program-access/allowlist-editor';
import { ApiLinkCard } from '@/components/program-access/api-link-card';
import { RenewModal } from '../components/renew-modal';
import { ReplaceModal } from '../components/replace-modal';
import { StaticOrdersCard } from '../components/static-orders-card';
import { StaticProxiesCard } from '../components/static-proxies-card';

/** /center/staticResidential: the customer's static IPs (renew, replace, export their lines) and their orders. */
export default function StaticResidentialPage() {
  const { t } = useTranslation();
  const [renewing, setRenewing] = useState<StaticProxyDto[] | null>(null);
  const [listing, setListing] = useState<StaticProxyDto | null>(null);
  const keyPrefix = useStaticKeyPrefix();
  const [replacing, setReplacing] = useState<StaticProxyDto | null>(null);
  // Loaded when a renewal opens, not with the page: the list must not wait on (or fail with) the price list.
  const goods = useQuery({ ...goodsQueryOptions(), enabled: renewing !== null });
  const methods = useQuery({ ...payMethodsQueryOptions(), enabled: renewing !== null });
  const prices = { ...goods, data: goods.data?.staticPrices };

  return (
    <Row gutter={[20, 20]}>
      <Col span={24}>
        <StaticProxiesCard onRenew={setRenewing} onReplace={setReplacing} onAllowlist={setListing} />
      </Col>
      <Col span={24}>
        <StaticOrdersCard />
      </Col>
      {/* Last, as on Get Proxy: drawn once the key's prefix is known, it moved the orders down by a screen. */}
      {keyPrefix.data !== undefined ? (
        <Col span={24}>
          <ApiLinkCard owner="static" prefix={keyPrefix.data} />
        </Col>
      ) : null}
      <RenewModal proxies={renewing} prices={prices} methods={methods} onClose={() => setRenewing(null)} />
      <ReplaceModal proxy={replacing} onClose={() => setReplacing(null)} />
      <Modal open={listing !== null} title={listing ? t('static.allowlist.title', { ip: listing.ip }) : ''} footer={null} onCancel={() => setListing(null)} destroyOnHidden>
        {listing ? <AllowlistEditor target={{ staticProxyId: listing.id }} /> : null}
      </Modal>
    </Row>
  );
}
