import { STATIC_INVENTORY_STATUSES, type StaticInventoryStatus, type StaticStockCell } from '@resi/contract';
import { Card, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { QueryState } from '@/components/query-state';
import { useStaticBoard } from '../api/get-static-board';
import type { Namer } from './static-names';

/** The stock at a glance: one row per region × listed business line (none listed = all lines), counts per status. */
export function StockBoard({ names }: { names: Namer }) {
  const { t } = useTranslation();
  const board = useStaticBoard();
  return (
    <Card variant="borderless" className="surface-card" title={t('staticAdmin.board.title')}>
      <QueryState query={board} errorTitle={t('staticAdmin.board.loadFailed')}>
        {(cells) => (
          <Table<StaticStockCell>
            size="small"
            rowKey={(c) => `${c.regionId}:${c.businessId ?? 'all'}`}
            dataSource={cells}
            pagination={false}
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: t('staticAdmin.board.empty') }}
            data-testid="static-board"
            columns={[
              { title: t('staticAdmin.columns.region'), key: 'region', render: (_, c) => names.region(c.regionId) },
              { title: t('staticAdmin.columns.line'), key: 'line', render: (_, c) => (c.businessId === null ? t('staticAdmin.allLines') : names.business(c.businessId)) },
              ...STATIC_INVENTORY_STATUSES.map((s: StaticInventoryStatus) => ({
                title: t(`staticAdmin.status.${s}`),
                key: s,
                align: 'right' as const,
                render: (_: unknown, c: StaticStockCell) => c.counts[s],
              })),
            ]}
          />
        )}
      </QueryState>
    </Card>
  );
}
