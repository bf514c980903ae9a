import type { ChannelKey } from '@resi/contract';

/** A channel link is the invite link with one channel parameter; the server counts landings by it. */
export function channelUrl(inviteLink: string, key: ChannelKey, value: string): string {
  return `${inviteLink}&${key}=${encodeURIComponent(value.trim())}`;
}
