import type { UsageMeter } from './meter';
import type { GatewayAuthority } from './ports';

/** Default lease: bytes a pool carries between two exact checks of what it may still carry (DESIGN §6). */
export const DEFAULT_LEASE_BYTES = 1024 * 1024;

/**
 * What the live connections ask before and while they carry bytes (byte budgets, docs/gateway.md). The
 * figures are exact for this gateway: the store's last word minus every byte this gateway metered
 * since — unsent, in flight, or landed in a batch the store's figure does not include yet.
 */
export interface ByteBudget {
  readonly leaseBytes: number;
  /** The user's balance left, asked through one of their accounts; ≤ 0 when spent. */
  balanceLeft(accountId: number, userId: number): number;
  /** The account's cap left; Infinity without a cap. */
  capLeft(accountId: number): number;
  /** Concurrent connections the account may hold; null: no limit. */
  maxConnections(accountId: number): number | null;
}

/** Budgets from the authority's cache and this gateway's meter. */
export function meteredBudget(authority: GatewayAuthority, meter: UsageMeter, leaseBytes: number): ByteBudget {
  return {
    leaseBytes,
    balanceLeft(accountId, userId) {
      const a = authority.allowance(accountId);
      return a ? a.balance - meter.unseenOfUser(userId, a.balanceSeq) : 0;
    },
    capLeft(accountId) {
      const a = authority.allowance(accountId);
      if (!a) return 0;
      return a.capLeft === null ? Infinity : a.capLeft - meter.unseenOfAccount(accountId, a.capSeq);
    },
    maxConnections: (accountId) => authority.allowance(accountId)?.maxConnections ?? null,
  };
}

/** No budgets: every account may carry anything (unit tests of the listeners that do not meter). */
export const UNLIMITED: ByteBudget = {
  leaseBytes: Infinity,
  balanceLeft: () => Infinity,
  capLeft: () => Infinity,
  maxConnections: () => null,
};
