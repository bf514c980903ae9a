import type { OrderItemDto } from '@resi/contract';
import type { Selectable } from 'kysely';
import type { OrderTable, UserTable } from './schema';

/** A user as stored: what the access guard puts on a request and what the auth module reads and writes. */
export type UserRow = Selectable<UserTable>;

/** An order as stored: the orders module owns it; payment adapters read it to start and check payments. */
export type OrderRow = Selectable<OrderTable>;

/** An order's items, stored as JSON: what was bought, at the price it had then. */
export const orderItems = (o: Pick<OrderRow, 'items'>): OrderItemDto[] => JSON.parse(o.items) as OrderItemDto[];
