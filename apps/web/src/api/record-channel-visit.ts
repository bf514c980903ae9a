import type { ChannelVisitBody } from '@resi/contract';
import { api } from '@/lib/api-client';
import type { Channel } from '@/lib/storage';

/**
 * POST /api/channel/visit: one landing through a distributor's channel link (docs/console.md#navigation-rules).
 * Sent without waiting and without a message: counting a visit must never hold up or disturb the page.
 */
export function recordChannelVisit(channel: Channel, inviteCode: string | null): void {
  const body: ChannelVisitBody = { channelKey: channel.key, channelValue: channel.value, ...(inviteCode ? { inviteCode } : {}) };
  api.post('/channel/visit', body).catch(() => undefined);
}
