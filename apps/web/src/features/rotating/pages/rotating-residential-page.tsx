import { Col, Row } from 'antd';
import { useTraffic } from '@/api/get-traffic';
import { TrafficBalanceCard } from '@/components/traffic-balance-card';
import { ProxyAccountsCard } from '../components/proxy-accounts-card';
import { TrafficOrdersCard } from '../components/traffic-orders-card';
import { UsageCard } from '../components/usage-card';

/** /center/rotatingResidential: traffic balance and grants, the proxy accounts, their usage, and the traffic orders. */
export default function RotatingResidentialPage() {
  const traffic = useTraffic();
  return (
    <Row gutter={[20, 20]}>
      <Col span={24}>
        <TrafficBalanceCard traffic={traffic} />
      </Col>
      <Col span={24}>
        <ProxyAccountsCard />
      </Col>
      <Col span={24}>
        <UsageCard />
      </Col>
      <Col span={24}>
        <TrafficOrdersCard />
      </Col>
    </Row>
  );
}
