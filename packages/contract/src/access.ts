/**
 * Who may call a route (docs/api.md#sign-in-and-roles). Every route declares one; the server refuses to start
 * a route without it.
 */
export const ACCESS_POLICIES = ['public', 'customer', 'distributor', 'admin'] as const;
export type AccessPolicy = (typeof ACCESS_POLICIES)[number];

export type Role = 'customer' | 'admin';

/** What a signed-in user may open: shared by the server's guard and the web menu. */
export function canAccess(policy: AccessPolicy, user: { role: Role; isDistributor: boolean } | null): boolean {
  if (policy === 'public') return true;
  if (!user) return false;
  if (policy === 'customer') return true;
  if (policy === 'distributor') return user.isDistributor || user.role === 'admin';
  return user.role === 'admin';
}
