import { randomBytes } from 'node:crypto';
import type { Clock } from '../../lib/clock';
import { iso } from '../../lib/clock';
import { hashPassword, newInviteCode } from '../../lib/secrets';
import type { UserRepository } from './user-repository';

/**
 * An empty store gets its first admin (docs/business-rules.md#the-first-admin): from ADMIN_EMAIL/ADMIN_PASSWORD, or a generated
 * password that is printed once to the console and never stored in plain text or logged.
 */
export async function ensureFirstAdmin(
  users: UserRepository,
  clock: Clock,
  opts: { email?: string; password?: string; print: (line: string) => void },
): Promise<void> {
  if (await users.hasAdmin()) return;
  const email = (opts.email ?? 'admin@localhost').toLowerCase();
  const password = opts.password ?? randomBytes(12).toString('base64url');
  const now = iso(clock.now());
  try {
    await users.insert({
      email,
      account: 'admin',
      password_hash: await hashPassword(password),
      role: 'admin',
      is_distributor: 0,
      status: 'active',
      invite_code: newInviteCode(),
      referrer_id: null,
      channel_key: null,
      channel_value: null,
      lang: 'en',
      created_at: now,
      last_login_at: null,
    });
  } catch (err) {
    // A second process starting at the same moment created it first.
    if (await users.hasAdmin()) return;
    throw err;
  }
  if (!opts.password) {
    opts.print(`\n  First admin created: ${email} (account "admin") with password ${password}\n  It is shown only this once: log in and change it.\n`);
  } else {
    opts.print(`First admin created: ${email}`);
  }
}
