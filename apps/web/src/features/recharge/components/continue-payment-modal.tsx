import type { OrderDto } from '@resi/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Modal } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useOrderStatus } from '@/api/check-order';
import { trafficKey } from '@/api/get-traffic';
import { PaymentStep } from '@/components/payment/payment-step';
import { myOrdersKey } from '@/api/get-my-orders';

/** A pending order can be paid again from here only when the server kept how to pay it (`order.payment`). */
export function canContinuePayment(order: Pick<OrderDto, 'status' | 'payment' | 'expiresAt'>, now: number): boolean {
  return order.status === 'pending' && order.payment !== null && Date.parse(order.expiresAt) > now;
}

/** The payment screen of an open order again, polled like at checkout. */
export function ContinuePaymentModal({ order, onClose }: { order: OrderDto | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal open={order !== null} onCancel={onClose} title={t('recharge.continue.title')} footer={null} width={640} destroyOnHidden data-testid="continue-payment">
      {order ? <ContinuePayment order={order} onClose={onClose} /> : null}
    </Modal>
  );
}

function ContinuePayment({ order: initial, onClose }: { order: OrderDto; onClose: () => void }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const order = useOrderStatus(initial);

  useEffect(() => {
    if (order.status === 'pending') return;
    // Settled while shown: the list and the balance are out of date.
    void queryClient.invalidateQueries({ queryKey: myOrdersKey });
    if (order.status === 'paid') void queryClient.invalidateQueries({ queryKey: trafficKey });
  }, [order.status, queryClient]);

  return (
    <PaymentStep
      order={order}
      payment={order.payment ?? initial.payment}
      onClose={onClose}
      onRestart={() => {
        onClose();
        void navigate('/center/buy');
      }}
    />
  );
}
