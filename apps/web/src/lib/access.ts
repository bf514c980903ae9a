import type { AccessPolicy, UserDto } from '@resi/contract';
import { canAccess } from '@resi/contract';

/*
 * Access on the client is for showing the right things (menu, 403 state); the server enforces it.
 * The rule itself is the contract's canAccess, shared with the server's guard.
 */
export function mayOpen(policy: AccessPolicy, user: Pick<UserDto, 'role' | 'isDistributor'> | null | undefined): boolean {
  return canAccess(policy, user ?? null);
}

export function userAccess(user: Pick<UserDto, 'role' | 'isDistributor'> | null | undefined) {
  return {
    customer: mayOpen('customer', user),
    distributor: mayOpen('distributor', user),
    admin: mayOpen('admin', user),
  };
}
