import type { FormRule } from 'antd';
import type { TFunction } from 'i18next';

/*
 * Form rules made from the contract's own field schemas, so the browser refuses exactly what the server
 * would, with the same `validation.*` text (the contract's messages are i18n keys).
 */
/** The part of a zod schema used here (typed structurally: zod is the contract's dependency, not ours). */
export interface FieldSchema {
  safeParse(value: unknown): { success: true } | { success: false; error: { issues: ReadonlyArray<{ message: string }> } };
}

/** The contract's messages are i18n keys; zod's own (limits without a custom message) are English text. */
function issueText(message: string | undefined, t: TFunction): string {
  return t(message && /^[a-zA-Z]+(?:\.[a-zA-Z0-9]+)+$/.test(message) ? message : 'common.form.invalid');
}

/**
 * A schema fetched when the field is first checked: a page that must load light (login) leaves the
 * contract's schemas, and zod with them, out of its first load.
 */
export type LazyFieldSchema = () => Promise<FieldSchema>;

export function schemaRule(schema: FieldSchema | LazyFieldSchema, t: TFunction, options: { optional?: boolean } = {}): FormRule {
  return {
    validator: async (_rule, value: unknown) => {
      if (options.optional && (value === undefined || value === null || String(value).trim() === '')) return;
      const checked = typeof schema === 'function' ? await schema() : schema;
      const result = checked.safeParse(value ?? '');
      if (!result.success) throw new Error(issueText(result.error.issues[0]?.message, t));
    },
  };
}

/**
 * A number field checked by the contract's schema, after converting what is typed (GB, dollars) into the
 * unit the API takes (bytes, cents), so the limits stay the server's. Empty is "required", unless `optional`.
 */
export function numberRule(schema: FieldSchema, t: TFunction, convert: (value: number) => number = (v) => v, { optional = false } = {}): FormRule {
  return {
    validator: async (_rule, value: unknown) => {
      if (optional && (value === null || value === undefined)) return;
      if (typeof value !== 'number' || !Number.isFinite(value)) throw new Error(t('validation.required'));
      const result = schema.safeParse(convert(value));
      if (!result.success) throw new Error(issueText(result.error.issues[0]?.message, t));
    },
  };
}

/** Second password field: required, and must repeat the first. */
export function sameAsRule(field: string, t: TFunction): FormRule {
  return ({ getFieldValue }) => ({
    validator: async (_rule, value: unknown) => {
      if (!value) throw new Error(t('common.form.confirmRequired'));
      if (value !== getFieldValue(field)) throw new Error(t('common.form.passwordMismatch'));
    },
  });
}

/** Trimmed string, or undefined when empty: optional body fields are left out rather than sent empty. */
export function optionalText(value: unknown): string | undefined {
  const text = typeof value === 'string' ? value.trim() : '';
  return text === '' ? undefined : text;
}
