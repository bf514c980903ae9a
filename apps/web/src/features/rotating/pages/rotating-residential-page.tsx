import { Col, Row } from 'antd';
import { useTraffic } from '@/api/get-traffic';
import { TrafficBalanceCard } from '@/components/traffic-balance-card';
import { ProxyAccountsCard } from '../components/proxy-accounts-card';
import { UsageCard } from '../components/usage-card';

/** /center/rotatingResidential: traffic balance and grants, the proxy accounts, and their usage. */
export default function RotatingResidentialPage() {
  const traffic = useTraffic();
  return (
    <Row gutter={[20, 20]}>
      <Col span={24}>
        <TrafficBalanceCard traffic={traffic.data} loading={traffic.isPending} />
      </Col>
      <Col span={24}>
        <ProxyAccountsCard />
      </Col>
      <Col span={24}>
        <UsageCard />
      </Col>
    </Row>
  );
}
