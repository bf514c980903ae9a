import type { CreateProxyAccountBody, ProxyAccountDto, UpdateProxyAccountBody } from '@resi/contract';
import { bytesToGb, gbToBytes } from '@/lib/format';
import { optionalText } from '@/lib/form-rules';

/** What the account dialog edits: the cap in GB (empty = no cap), the rest as the API has it. */
export interface AccountValues {
  username: string;
  password: string;
  limitGb: number | null;
  /** Concurrent connections; empty = the operator's default (or none). */
  maxConnections?: number | null;
  remark: string;
  /** At the cap: refuse the account (true) or only alert. Absent while no cap is typed (the switch is hidden). */
  pauseAtCap?: boolean;
}

/** Proxy passwords travel inside proxy URLs, so letters and digits only (the contract's rule). */
const PASSWORD_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';

/** A 16-character password from the platform's CSPRNG, offered when an account is created. */
export function randomProxyPassword(length = 16): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return Array.from(bytes, (b) => PASSWORD_ALPHABET[b % PASSWORD_ALPHABET.length]).join('');
}

export function newAccountValues(): AccountValues {
  return { username: '', password: randomProxyPassword(), limitGb: null, maxConnections: null, remark: '', pauseAtCap: true };
}

/** The cap shown in GB, rounded to what the input shows (two decimals). */
export function toAccountValues(account: ProxyAccountDto): AccountValues {
  return {
    username: account.username,
    password: account.password,
    limitGb: account.limitBytes === null ? null : Math.round(bytesToGb(account.limitBytes) * 100) / 100,
    maxConnections: account.maxConnections,
    remark: account.remark ?? '',
    pauseAtCap: account.pauseAtCap,
  };
}

function limitBytes(gb: number | null): number | null {
  return gb === null || !Number.isFinite(gb) ? null : gbToBytes(gb);
}

export function toCreateBody(values: AccountValues): CreateProxyAccountBody {
  const remark = optionalText(values.remark);
  const cap = limitBytes(values.limitGb);
  const max = values.maxConnections ?? null;
  return {
    username: values.username.trim().toLowerCase(),
    password: values.password,
    ...(cap === null ? {} : { limitBytes: cap }),
    ...(max === null ? {} : { maxConnections: max }),
    ...(remark ? { remark } : {}),
    // Only with a cap: without one there is nothing to pause at.
    ...(cap !== null && values.pauseAtCap !== undefined ? { pauseAtCap: values.pauseAtCap } : {}),
  };
}

/**
 * Only what changed is sent. A cap that reads the same in GB keeps its exact bytes (a cap of 1.004 GB is
 * shown as 1 GB and must not be rounded by saving the remark); a cleared cap or remark is sent as null.
 */
export function toUpdateBody(account: ProxyAccountDto, values: AccountValues): UpdateProxyAccountBody {
  const body: UpdateProxyAccountBody = {};
  if (values.password !== account.password) body.password = values.password;
  if (values.limitGb !== toAccountValues(account).limitGb) body.limitBytes = limitBytes(values.limitGb);
  if (values.maxConnections !== undefined && (values.maxConnections ?? null) !== account.maxConnections) body.maxConnections = values.maxConnections ?? null;
  const remark = optionalText(values.remark) ?? null;
  if (remark !== account.remark) body.remark = remark;
  if (values.pauseAtCap !== undefined && values.pauseAtCap !== account.pauseAtCap) body.pauseAtCap = values.pauseAtCap;
  return body;
}

/** Share of the cap used, 0–100; null without a cap. */
export function usedPercent(account: Pick<ProxyAccountDto, 'usedBytes' | 'limitBytes'>): number | null {
  if (account.limitBytes === null || account.limitBytes <= 0) return null;
  return Math.min(100, Math.round((account.usedBytes / account.limitBytes) * 1000) / 10);
}
