import type { AdminOrderDto, OrderDto, PaidBy, PayMethod, PaymentInstruction } from '@resi/contract';
import { type OrderRow, orderItems } from '../../db/rows';

export function toOrderDto(o: OrderRow): OrderDto {
  return {
    orderNo: o.order_no,
    kind: o.kind,
    status: o.status,
    items: orderItems(o),
    amount: Number(o.amount),
    currency: o.currency,
    payMethod: o.pay_method as PayMethod | null,
    // A payment step is only worth showing while the order can still be paid.
    payment: o.status === 'pending' && o.payment ? (JSON.parse(o.payment) as PaymentInstruction) : null,
    note: o.note,
    expiresAt: o.expires_at,
    paidAt: o.paid_at,
    createdAt: o.created_at,
  };
}

export function toAdminOrderDto(o: OrderRow & { user_email: string }): AdminOrderDto {
  return { ...toOrderDto(o), userId: o.user_id, userEmail: o.user_email, providerRef: o.provider_ref, paidBy: o.paid_by as PaidBy | null };
}
