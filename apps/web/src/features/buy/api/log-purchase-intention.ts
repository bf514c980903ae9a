import type { intentionBody } from '@resi/contract';
import { request } from '@/lib/api-client';

export type IntentionBody = ReturnType<typeof intentionBody.parse>;

/**
 * POST /api/logs/intention-purchase: the customer opened a checkout and left without paying. Sent with
 * keepalive so it survives the tab closing; a failure is of no interest to the customer (no toast).
 */
export async function logPurchaseIntention(body: IntentionBody): Promise<void> {
  await request<null>('/logs/intention-purchase', { method: 'POST', body, keepalive: true });
}
