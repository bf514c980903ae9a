import { z } from 'zod';
import { adminOrderDto, orderNoField } from './commerce';

/** `POST /api/manage/order-refund`: the note says how the money went back (the console moves none itself). */
export const orderRefundBody = z.strictObject({
  orderNo: orderNoField,
  note: z.string().trim().min(1, { error: 'validation.note' }).max(200),
});
export type OrderRefundBody = z.infer<typeof orderRefundBody>;

/** `GET /api/manage/order-refund?orderNo=`: what a refund of this order would take back now. */
export const orderRefundQuery = z.strictObject({ orderNo: orderNoField });

/** What a refund takes back from the customer (docs/business-rules.md#refunds). */
export const refundTakeBackDto = z.object({
  /** The unused remainder of the order's traffic grant (0 when it has none, or it expired or was used up). */
  trafficBytes: z.number().int(),
  /** Static IPs the order allocated that are released. */
  staticIps: z.array(z.object({ id: z.number().int(), ip: z.string() })),
  /** Static IPs whose renewal by this order is taken back: `days` off their expiry, `expiresAt` as it becomes. */
  renewals: z.array(z.object({ id: z.number().int(), ip: z.string(), days: z.number().int(), expiresAt: z.string() })),
  /**
   * The distributor's commission on the order, when it earned one: still pending, it is voided; out of its
   * hold (available, or already paid out), a negative row of the same amount is written.
   */
  commission: z
    .object({ distributorEmail: z.string(), amount: z.number().int(), currency: z.string(), effect: z.enum(['void', 'reversal']) })
    .nullable(),
});
export type RefundTakeBackDto = z.infer<typeof refundTakeBackDto>;

export const orderRefundDto = z.object({ order: adminOrderDto, takeBack: refundTakeBackDto });
export type OrderRefundDto = z.infer<typeof orderRefundDto>;
