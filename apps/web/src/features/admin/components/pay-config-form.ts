import { PAY_METHOD_FIELDS, type PayConfigBody, type PayConfigDto, type PayMethod } from '@resi/contract';

/*
 * Secrets of a payment method are only ever answered masked (`••••1234`), so the form never holds them:
 * a secret field starts empty with the masked value as placeholder. Left empty it keeps the stored secret
 * (the key is left out), typed it replaces it, and the "clear" action sends "" to remove it.
 */

export interface PayConfigValues {
  enabled: boolean;
  settings: Record<string, string>;
  secrets: Record<string, string>;
}

export type SettingField = (typeof PAY_METHOD_FIELDS)[PayMethod]['settings'][number];
export type SecretField = (typeof PAY_METHOD_FIELDS)[PayMethod]['secrets'][number];

export function settingFields(method: PayMethod): readonly SettingField[] {
  return PAY_METHOD_FIELDS[method].settings;
}

export function secretFields(method: PayMethod): readonly SecretField[] {
  return PAY_METHOD_FIELDS[method].secrets;
}

/** The form as loaded: plain settings filled in, every secret empty. */
export function initialPayConfigValues(dto: PayConfigDto): PayConfigValues {
  return {
    enabled: dto.enabled,
    settings: Object.fromEntries(settingFields(dto.method).map((f) => [f, dto.settings[f] ?? ''])),
    secrets: Object.fromEntries(secretFields(dto.method).map((f) => [f, ''])),
  };
}

/** What to send: all settings; of the secrets only those typed (replace) or marked to clear (""). */
export function payConfigBody(method: PayMethod, values: PayConfigValues, cleared: ReadonlySet<string>): PayConfigBody {
  const settings: Record<string, string> = {};
  for (const field of settingFields(method)) settings[field] = (values.settings?.[field] ?? '').trim();
  const secrets: Record<string, string> = {};
  for (const field of secretFields(method)) {
    const typed = (values.secrets?.[field] ?? '').trim();
    if (typed !== '') secrets[field] = typed;
    else if (cleared.has(field)) secrets[field] = '';
  }
  return { method, enabled: values.enabled, settings, secrets };
}

export type SecretState = 'set' | 'unset' | 'clearing';

/** How a secret field reads to the admin: stored (masked placeholder), not set, or about to be cleared. */
export function secretState(dto: PayConfigDto, field: string, cleared: ReadonlySet<string>): SecretState {
  if (cleared.has(field)) return 'clearing';
  return dto.secrets[field] ? 'set' : 'unset';
}
