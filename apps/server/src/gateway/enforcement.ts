import type { GatewayLog } from './gateway-log';
import type { LiveConnections } from './live-connections';
import type { GatewayAuthority } from './ports';

/**
 * Cuts live connections of accounts that may no longer carry traffic (disabled, out of traffic, cap
 * reached) and those opened by an address no longer allowlisted, then checks every byte budget against the authority's figures (a recharge, a lowered cap
 * or another gateway's usage changes them). The standing comes from the authority's cache, refreshed
 * by the store after each flush.
 */
export function enforceStanding(live: LiveConnections, authority: GatewayAuthority, log: GatewayLog, cause: 'poll' | 'event' = 'poll'): void {
  for (const accountId of live.accounts()) {
    const refusal = authority.standing(accountId);
    if (refusal === null) continue;
    const closed = live.closeAccount(accountId);
    log.info({ accountId, refusal, closed, cause }, 'gateway: account cut off');
  }
  // Connections admitted by their address: cut once it is off the allowlist (or its account wants the password).
  const unlisted = live.closeUnlisted((key) => authority.sourceListed(key));
  if (unlisted > 0) log.info({ closed: unlisted, cause }, 'gateway: connections of addresses no longer allowlisted closed');
  live.checkBudgets();
}
