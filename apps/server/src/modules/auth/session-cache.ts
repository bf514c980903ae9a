import type { UserRow } from '../../db/rows';

/** What the store said about a token hash, and when that answer stops being usable without asking again. */
export interface CachedSession {
  user: Readonly<UserRow>;
  sessionId: number;
  /** Epoch ms: the session's expiry, and when its sliding expiry is next due to be written. */
  expiresAt: number;
  touchDueAt: number;
}

/** Sessions kept at most; past it the oldest entry goes (the hot ones come straight back). */
const MAX_ENTRIES = 10_000;

/**
 * Signed-in requests answered from memory while the store has not changed (docs/architecture.md#a-signed-in-requests-own-cost).
 * Every entry is dropped as soon as the store's version moves: any write by this process (a logout, a
 * password change, disabling a user) or any commit by another process sharing the store. So a revoked
 * token is refused by the very next request in every process, as without the cache. Only stores that can
 * tell this without a round trip have a version (SQLite); elsewhere there is no cache.
 */
export class SessionCache {
  private readonly entries = new Map<string, CachedSession>();
  private version: number;

  constructor(private readonly storeVersion: () => number) {
    this.version = storeVersion();
  }

  /** The store's version now; entries from an older one are dropped. */
  current(): number {
    const v = this.storeVersion();
    if (v !== this.version) {
      this.entries.clear();
      this.version = v;
    }
    return v;
  }

  get(tokenHash: string): CachedSession | undefined {
    return this.entries.get(tokenHash);
  }

  /**
   * Keeps an answer read while the store was at `readAt` (taken before the read), only if it still is: a
   * write between the two may or may not be in the answer.
   */
  set(tokenHash: string, entry: CachedSession, readAt: number): void {
    if (this.current() !== readAt) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(tokenHash, entry);
  }
}
