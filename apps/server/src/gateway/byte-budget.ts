import type { UsageMeter } from './meter';
import type { GatewayAuthority } from './ports';
import type { Reservations } from './reservations';

/** Default lease: bytes a pool carries between two exact checks of what it may still carry (docs/gateway.md#byte-budgets). */
export const DEFAULT_LEASE_BYTES = 1024 * 1024;

/**
 * What the live connections ask before and while they carry bytes (byte budgets, docs/gateway.md). The
 * figures are exact for this gateway: the store's last word minus every byte this gateway metered
 * since — unsent, in flight, or landed in a batch the store's figure does not include yet.
 */
export interface ByteBudget {
  readonly leaseBytes: number;
  /** A share below this asks for the next lease: a whole lease still in hand (never, without sharing). */
  readonly askBelow: number;
  /** The user's balance left, asked through one of their accounts; ≤ 0 when spent. */
  balanceLeft(accountId: number, userId: number): number;
  /** The account's cap left; Infinity without a cap. */
  capLeft(accountId: number): number;
  /**
   * With several gateway processes, what this process may still carry of the balance (cap): its
   * reservation minus what it metered, plus a small credit (reservations.ts).
   * Infinity when budgets are not shared, or the account has no cap.
   */
  balanceShare(userId: number): number;
  capShare(accountId: number): number;
  /** Asks the store for one more lease of this process's share (a no-op while one is on its way). */
  ask(kind: 'balance' | 'cap', id: number): void;
  asking(kind: 'balance' | 'cap', id: number): boolean;
  /** Concurrent connections the account may hold; null: no limit. */
  maxConnections(accountId: number): number | null;
}

const notShared = {
  balanceShare: () => Infinity,
  capShare: () => Infinity,
  ask: () => undefined,
  asking: () => false,
};

const subject = (kind: 'balance' | 'cap', id: number) => ({ kind: kind === 'balance' ? ('user' as const) : ('account' as const), id });

/** Budgets from the authority's cache and this gateway's meter; shared through `reservations` when given. */
export function meteredBudget(authority: GatewayAuthority, meter: UsageMeter, leaseBytes: number, reservations?: Reservations): ByteBudget {
  return {
    leaseBytes,
    askBelow: reservations ? leaseBytes + reservations.credit : 0,
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
    ...(reservations
      ? {
          balanceShare: (userId: number) => reservations.share({ kind: 'user', id: userId }, meter.unflushedOfUser(userId)),
          capShare: (accountId: number) =>
            authority.allowance(accountId)?.capLeft === null ? Infinity : reservations.share({ kind: 'account', id: accountId }, meter.unflushedOfAccount(accountId)),
          ask: (kind: 'balance' | 'cap', id: number) => reservations.ask(subject(kind, id)),
          asking: (kind: 'balance' | 'cap', id: number) => reservations.isAsking(subject(kind, id)),
        }
      : notShared),
  };
}

/** No budgets: every account may carry anything (unit tests of the listeners that do not meter). */
export const UNLIMITED: ByteBudget = {
  leaseBytes: Infinity,
  askBelow: 0,
  balanceLeft: () => Infinity,
  capLeft: () => Infinity,
  maxConnections: () => null,
  ...notShared,
};
