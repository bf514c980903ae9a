import type { ApiKeyScope, CreateApiKeyBody } from '@resi/contract';
import type { Dayjs } from 'dayjs';
import { API_PREFIX } from '@/lib/constants';
import { toMinorUnits } from '@/lib/format';

/** The create form as typed: the expiry a day, the allowlist one address a line, the cap in currency units. */
export interface ApiKeyFormValues {
  name: string;
  scopes: ApiKeyScope[];
  expiresOn?: Dayjs | null;
  allowlist?: string;
  dailySpendCap?: number | null;
}

/** The addresses of the allowlist box: one a line, blank lines and surrounding spaces dropped. */
export function allowlistLines(text: string | undefined): string[] {
  return (text ?? '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/**
 * The body of POST /api/user/api-keys. The key lasts to the end of the chosen day in the browser's time zone; the
 * cap goes in minor units and only with `buy` (the server refuses a buying key without one).
 */
export function createApiKeyRequest(values: ApiKeyFormValues, currency: string): CreateApiKeyBody {
  const body: CreateApiKeyBody = { name: values.name.trim(), scopes: values.scopes };
  if (values.expiresOn) body.expiresAt = values.expiresOn.endOf('day').toISOString();
  const allowlist = allowlistLines(values.allowlist);
  if (allowlist.length > 0) body.allowlist = allowlist;
  if (values.scopes.includes('buy') && typeof values.dailySpendCap === 'number') body.dailySpendCap = toMinorUnits(values.dailySpendCap, currency);
  return body;
}

/** A first call a program could make with the key, as shown beside it: its traffic balance, which `read` allows. */
export function curlExample(origin: string, key: string): string {
  return `curl -H 'Authorization: Bearer ${key}' ${origin}${API_PREFIX}/traffic`;
}
