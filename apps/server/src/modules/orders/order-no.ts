import { randomInt } from 'node:crypto';
import type { OrderKind } from '@resi/contract';

const PREFIX: Record<OrderKind, string> = { dynamic: 'D', static: 'S', 'static-renew': 'N', 'manual-recharge': 'M' };

/** `D20261122153045` + 6 random digits: readable over the phone, sortable by time, unguessable enough. */
export function newOrderNo(kind: OrderKind, now: Date): string {
  const stamp = now.toISOString().replace(/\D/g, '').slice(0, 14);
  return `${PREFIX[kind]}${stamp}${String(randomInt(1_000_000)).padStart(6, '0')}`;
}
