import { iso } from '../src/lib/clock';
import { hashPassword, newInviteCode } from '../src/lib/secrets';
import { UserRepository } from '../src/modules/auth/user-repository';
import type { UserRow } from '../src/db/rows';
import { call, sendCode } from './auth-flows';
import { type SinkMessage, lastCodeFor } from './smtp-sink';
import type { TestApp } from './test-app';

let seq = 0;
/** scrypt is deliberately slow; test users with the same password share one hash. */
const hashes = new Map<string, Promise<string>>();
const hashOnce = (password: string): Promise<string> => {
  let h = hashes.get(password);
  if (!h) hashes.set(password, (h = hashPassword(password)));
  return h;
};

/** A fresh address per test, so tests sharing one app never trip over each other's rows or limits. */
export function uniqueEmail(prefix = 'user'): string {
  seq += 1;
  return `${prefix}-${seq}-${process.pid}@example.com`;
}

/** A fresh client IP per test: per-IP limits (mail codes, login lockout) then start from zero. */
export function uniqueIp(): string {
  seq += 1;
  return `10.${(seq >> 16) & 255}.${(seq >> 8) & 255}.${seq & 255}`;
}

/** Inserts a user straight into the store (for tests whose subject is not registration). */
export async function createUser(
  t: Pick<TestApp, 'db'> & { clock?: TestApp['clock'] },
  u: { email: string; password: string; account?: string; role?: 'customer' | 'admin'; isDistributor?: boolean; status?: 'active' | 'disabled' },
): Promise<UserRow> {
  return new UserRepository(t.db.db).insert({
    email: u.email.toLowerCase(),
    account: u.account?.toLowerCase() ?? null,
    password_hash: await hashOnce(u.password),
    role: u.role ?? 'customer',
    is_distributor: u.isDistributor ? 1 : 0,
    status: u.status ?? 'active',
    invite_code: newInviteCode(),
    referrer_id: null,
    channel_key: null,
    channel_value: null,
    lang: 'en',
    created_at: iso(t.clock?.now() ?? new Date()),
    last_login_at: null,
  });
}

/** Registers through the API with a code read from the SMTP sink; returns the session token. */
export async function registerViaApi(
  t: TestApp,
  messages: SinkMessage[],
  body: { email: string; password: string; account?: string; inviteCode?: string },
  ip = uniqueIp(),
): Promise<string> {
  const sent = await sendCode(t.app, body.email, 'register', ip);
  if (sent.status !== 200) throw new Error(`send-mail-code: ${sent.status} ${JSON.stringify(sent.body)}`);
  const res = await call(t.app, 'POST', '/api/register', { body: { ...body, code: lastCodeFor(messages, body.email), agree: true }, ip });
  if (res.status !== 200 || !res.body.token) throw new Error(`register: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.token;
}
