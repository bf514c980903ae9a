import type { Socket } from 'node:net';
import { IndexedSet } from './indexed-set';

/** Who a client connection's bytes belong to (usage rows are per account, hour and exit country). */
export interface MeterKey {
  accountId: number;
  userId: number;
  country: string | null;
}

export type RecordBytes = (key: MeterKey, bytesUp: number, bytesDown: number) => void;

interface Live {
  socket: Socket;
  key: MeterKey;
  /** Counter values already recorded. */
  read: number;
  sent: number;
}

/**
 * Bytes a client socket has handed to the kernel: `bytesWritten` also counts what still waits in the
 * socket's buffer, which a cut-off would never deliver.
 */
function sentBytes(socket: Socket): number {
  return (socket.bytesWritten ?? 0) - socket.writableLength;
}

/**
 * The client connections that carry an account's traffic. Metering reads each socket's own counters
 * (`bytesRead` = up, bytes sent = down) at every harvest and at close, so a long tunnel is billed
 * while it lives and nothing is done per chunk. Cut-off destroys an account's sockets. The listener
 * that owns a socket calls `release` when it closes (one 'close' listener per socket, not two).
 */
export class LiveConnections {
  // No Map or Set keyed by sockets or their records: see indexed-set.ts.
  private readonly bySocket = new WeakMap<Socket, Live>();
  private readonly all = new IndexedSet<Live>();
  /** Accounts come and go far less often than connections: a Map is fine here. */
  private readonly byAccount = new Map<number, IndexedSet<Live>>();

  constructor(private readonly record: RecordBytes) {}

  get size(): number {
    return this.all.size;
  }

  /**
   * Whether `socket` may carry a request of `accountId`. A fresh socket may; one already bound to the
   * account may; one bound to another account only at a clean request boundary (`boundary` not null).
   */
  mayClaim(socket: Socket, accountId: number, boundary: number | null): boolean {
    const live = this.bySocket.get(socket);
    return !live || live.key.accountId === accountId || boundary !== null;
  }

  /**
   * Binds the socket's bytes to `key` from now on. On a fresh socket every byte it carried so far is
   * the key's (the request that opened it). On a kept-alive socket changing key, the old key gets the
   * bytes read up to `boundary` (the end of the last complete request) and everything sent so far.
   * Returns false, changing nothing, when another account asks without a boundary.
   */
  claim(socket: Socket, key: MeterKey, boundary: number | null): boolean {
    const live = this.bySocket.get(socket);
    if (!live) {
      const fresh: Live = { socket, key, read: 0, sent: 0 };
      this.bySocket.set(socket, fresh);
      this.all.add(fresh);
      this.index(fresh);
      return true;
    }
    const old = live.key;
    if (old.accountId === key.accountId && old.country === key.country) return true;
    if (boundary === null) return old.accountId === key.accountId; // same account: keep the old country until a boundary
    const read = Math.max(live.read, boundary);
    const sent = sentBytes(socket);
    this.emit(old, read - live.read, sent - live.sent);
    live.read = read;
    live.sent = Math.max(live.sent, sent);
    if (old.accountId !== key.accountId) {
      this.unindex(live);
      live.key = key;
      this.index(live);
    } else {
      live.key = key;
    }
    return true;
  }

  /** Records every live socket's bytes since the last harvest. */
  harvest(): void {
    this.all.forEach((live) => this.take(live));
  }

  accounts(): number[] {
    return [...this.byAccount.keys()];
  }

  /** Destroys every connection of the account; returns how many. Their bytes are recorded on close. */
  closeAccount(accountId: number): number {
    const set = this.byAccount.get(accountId);
    if (!set) return 0;
    const sockets = set.toArray().map((l) => l.socket);
    for (const s of sockets) s.destroy();
    return sockets.length;
  }

  /** Records and forgets every connection (shutdown: the sockets are being destroyed). */
  drain(): void {
    this.harvest();
    this.all.forEach((live) => this.bySocket.delete(live.socket));
    this.all.clear();
    this.byAccount.clear();
  }

  /** The socket closed: records its last bytes and forgets it. The listeners call this on 'close'. */
  release(socket: Socket): void {
    const live = this.bySocket.get(socket);
    if (!live) return;
    this.take(live);
    this.bySocket.delete(socket);
    this.all.delete(live);
    this.unindex(live);
  }

  private take(live: Live): void {
    const read = live.socket.bytesRead;
    const sent = sentBytes(live.socket);
    const up = read - live.read;
    const down = sent - live.sent;
    if (up <= 0 && down <= 0) return;
    this.emit(live.key, up, down);
    live.read = Math.max(live.read, read);
    live.sent = Math.max(live.sent, sent);
  }

  private emit(key: MeterKey, up: number, down: number): void {
    const u = Math.max(0, up);
    const d = Math.max(0, down);
    if (u > 0 || d > 0) this.record(key, u, d);
  }

  private index(live: Live): void {
    let set = this.byAccount.get(live.key.accountId);
    if (!set) this.byAccount.set(live.key.accountId, (set = new IndexedSet()));
    set.add(live);
  }

  private unindex(live: Live): void {
    const set = this.byAccount.get(live.key.accountId);
    if (!set) return;
    set.delete(live);
    if (set.size === 0) this.byAccount.delete(live.key.accountId);
  }
}
