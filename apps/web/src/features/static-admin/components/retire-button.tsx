import type { StaticInventoryDto } from '@resi/contract';
import { Button, Input, Popconfirm } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '@/lib/notify';
import { useRetireStaticInventory } from '../api/retire-static-inventory';

/** Retires a row for good after a confirmation that asks why (kept in its history). */
export function RetireButton({ row }: { row: StaticInventoryDto }) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const retire = useRetireStaticInventory();
  return (
    <Popconfirm
      title={t('staticAdmin.retire.title', { ip: row.ip })}
      description={
        <div className="static-retire-reason">
          <div>{t('staticAdmin.retire.content')}</div>
          <Input value={reason} onChange={(e) => setReason(e.target.value)} maxLength={200} placeholder={t('staticAdmin.retire.reason')} data-testid="retire-reason" />
        </div>
      }
      okText={t('staticAdmin.retire.ok')}
      cancelText={t('staticAdmin.cancel')}
      okButtonProps={{ danger: true, loading: retire.isPending, 'data-testid': 'retire-confirm' } as never}
      onOpenChange={(open) => open && setReason('')}
      onConfirm={() =>
        retire
          .mutateAsync({ id: row.id, reason: reason.trim() || undefined })
          .then((res) => notify.success(res.message || t('staticAdmin.retire.done')))
          .catch(() => undefined)
      }
    >
      <Button type="link" size="small" danger disabled={row.status === 'retired'} data-testid="retire-row">
        {t('staticAdmin.actions.retire')}
      </Button>
    </Popconfirm>
  );
}
