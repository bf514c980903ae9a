import { PlusOutlined } from '@ant-design/icons';
import { Button, Card, Space, Table, Typography, type TableColumnsType } from 'antd';
import type { ReactNode } from 'react';
import { type QueryLike, QueryState, tableEmptyText } from '@/components/query-state';

interface CappedListCardProps<Q, R> {
  icon: ReactNode;
  title: string;
  lead: string;
  /** The data the list needs (a query, or several combined) and its rows. */
  query: QueryLike<Q>;
  rowsOf: (data: Q) => R[];
  columns: TableColumnsType<R>;
  emptyText: string;
  loadFailed: string;
  /** How many the customer may hold; "Create" is off at the cap. */
  max: number;
  /** "2 of 20 in use", or the words for a list at its cap. */
  countText: (count: number, full: boolean) => string;
  createLabel: string;
  createTestId: string;
  onCreate: () => void;
  /** `data-testid` of the card; its table and count add `-table` and `-count`. */
  testId: string;
  /** The create form, the secret shown once, a drawer. */
  children?: ReactNode;
}

/**
 * A card of credentials a customer holds a capped number of (API keys, webhook endpoints): a lead, the table in
 * its final shape while loading, the count against the cap, and a create button off until the list is known.
 */
export function CappedListCard<Q, R extends { id: number }>(p: CappedListCardProps<Q, R>) {
  const count = p.query.data === undefined ? 0 : p.rowsOf(p.query.data).length;
  const full = count >= p.max;
  // Not max-content: auto widths wrap what may wrap and scroll sideways inside the card only on a phone.
  const table = (rows: R[], loading: boolean) => (
    <Table<R>
      rowKey="id"
      dataSource={rows}
      columns={p.columns}
      pagination={false}
      scroll={{ x: true }}
      locale={{ emptyText: tableEmptyText(loading, p.emptyText) }}
      data-testid={`${p.testId}-table`}
    />
  );
  return (
    <Card
      variant="borderless"
      className="surface-card"
      title={
        <Space>
          {p.icon}
          {p.title}
        </Space>
      }
      extra={
        <Button type="primary" icon={<PlusOutlined />} disabled={p.query.data === undefined || full} onClick={p.onCreate} data-testid={p.createTestId}>
          {p.createLabel}
        </Button>
      }
      data-testid={p.testId}
    >
      <Typography.Paragraph type="secondary">{p.lead}</Typography.Paragraph>
      <QueryState query={p.query} placeholder={table([], true)} errorTitle={p.loadFailed}>
        {(data) => (
          <>
            {table(p.rowsOf(data), false)}
            <Typography.Paragraph type={full ? 'warning' : 'secondary'} className="api-keys-count" data-testid={`${p.testId}-count`}>
              {p.countText(count, full)}
            </Typography.Paragraph>
          </>
        )}
      </QueryState>
      {p.children}
    </Card>
  );
}
