import type { FormRule } from 'antd';
import { useRef, useState } from 'react';

/*
 * A small form state for the pages drawn without antd (login, register; docs/console.md#first-load). It takes
 * the same rules as antd's Form (lib/form-rules.ts: `{ validator }` objects or functions of the form), so both
 * refuse the same input with the same localized text, and it checks a field as antd does: on every change
 * once typed in, all of them on submit.
 */
type Values = Record<string, string | boolean>;
type Rules<V extends Values> = Partial<Record<keyof V & string, FormRule[]>>;

export interface LiteForm<V extends Values> {
  values: V;
  errors: Partial<Record<keyof V & string, string>>;
  setFieldValue(name: keyof V & string, value: V[keyof V & string]): void;
  /** Checks the named fields (all when none are named); resolves to the values, rejects when one fails. */
  validateFields(names?: (keyof V & string)[]): Promise<V>;
  resetFields: () => void;
  /** Props for the field's control: value, change handler (which checks it), invalid state. */
  control: (name: keyof V & string) => { value: V[keyof V & string]; onChange: (value: V[keyof V & string]) => void; invalid: boolean };
  /** control() of a text field. */
  text: (name: keyof V & string) => { value: string; onChange: (value: string) => void; invalid: boolean };
  /** A form `onSubmit` that checks every field first, then calls `onFinish` with the values. */
  submit: (onFinish: (values: V) => void) => (event: React.FormEvent) => void;
}

export function useLiteForm<V extends Values>(initial: V, rules: Rules<V>): LiteForm<V> {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<keyof V & string, string>>>({});
  // Rules read the latest values (sameAsRule), and a slow check must not overwrite a newer one.
  const latest = useRef(values);
  const runs = useRef(new Map<string, number>());

  const check = async (name: keyof V & string, all: V): Promise<string | null> => {
    const run = (runs.current.get(name) ?? 0) + 1;
    runs.current.set(name, run);
    let message: string | null = null;
    for (const rule of rules[name] ?? []) {
      const resolved = typeof rule === 'function' ? rule({ getFieldValue: (field: string) => latest.current[field] } as never) : rule;
      try {
        await resolved.validator?.(resolved as never, all[name], () => {});
      } catch (err) {
        message = err instanceof Error ? err.message : String(err);
        break;
      }
    }
    if (runs.current.get(name) === run) setErrors((prev) => ({ ...prev, [name]: message ?? undefined }));
    return message;
  };

  const setFieldValue = (name: keyof V & string, value: V[keyof V & string]) => {
    latest.current = { ...latest.current, [name]: value };
    setValues(latest.current);
  };

  const validateFields = async (names?: (keyof V & string)[]) => {
    const all = latest.current;
    const list = names ?? (Object.keys(all) as (keyof V & string)[]);
    const failed = (await Promise.all(list.map((name) => check(name, all)))).some((message) => message !== null);
    if (failed) throw new Error('invalid');
    return all;
  };

  const control = (name: keyof V & string) => ({
    value: values[name],
    invalid: Boolean(errors[name]),
    onChange: (value: V[keyof V & string]) => {
      setFieldValue(name, value);
      void check(name, latest.current);
    },
  });

  return {
    values,
    errors,
    setFieldValue,
    validateFields,
    resetFields: () => {
      latest.current = initial;
      setValues(initial);
      setErrors({});
    },
    control,
    text: (name) => control(name) as unknown as { value: string; onChange: (value: string) => void; invalid: boolean },
    submit: (onFinish) => (event) => {
      event.preventDefault();
      validateFields().then(onFinish, () => {});
    },
  };
}
