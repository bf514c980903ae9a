import { loginBody, packageBody, rechargeBody } from '@resi/contract';
import type { FormRule } from 'antd';
import { describe, expect, it } from 'vitest';
import { i18n } from './i18n';
import { gbToBytes, toMinorUnits } from './format';
import { numberRule, schemaRule } from './form-rules';

const t = i18n.t.bind(i18n);

/** Runs a rule's validator: resolves to null when valid, else to the message shown. */
async function check(rule: FormRule, value: unknown): Promise<string | null> {
  const validator = (rule as { validator: (r: unknown, v: unknown) => Promise<void> }).validator;
  try {
    await validator({}, value);
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}

describe('schemaRule with a schema fetched at the first check', () => {
  it('checks as the schema itself does', async () => {
    let fetched = 0;
    const rule = schemaRule(async () => {
      fetched += 1;
      return loginBody.shape.password;
    }, t);
    expect(fetched).toBe(0);
    expect(await check(rule, 'short')).toBe(await check(schemaRule(loginBody.shape.password, t), 'short'));
    expect(await check(rule, 'long enough password')).toBeNull();
    expect(fetched).toBe(2);
  });
});

describe('numberRule: the contract limits checked on the converted value', () => {
  it('checks GB typed in a form as bytes against the contract', async () => {
    const rule = numberRule(packageBody.shape.bytes, t, gbToBytes);
    expect(await check(rule, 10)).toBeNull();
    // 0.0001 GB is about 107 KB, under the contract's 1 MB minimum.
    expect(await check(rule, 0.0001)).toBe('A package holds at least 1 MB of traffic.');
  });

  it('checks a price typed in dollars as cents', async () => {
    const rule = numberRule(packageBody.shape.price, t, (v) => toMinorUnits(v, 'USD'));
    expect(await check(rule, 0.01)).toBeNull();
    expect(await check(rule, 0.001)).toBe('Enter a price above zero.');
  });

  it('calls an empty number field required', async () => {
    const rule = numberRule(rechargeBody.shape.userId, t);
    expect(await check(rule, undefined)).toBe('This field is required.');
    expect(await check(rule, null)).toBe('This field is required.');
    expect(await check(rule, 7)).toBeNull();
  });
});

describe('schemaRule', () => {
  it('shows the contract message, and a generic one for zod limits without a message', async () => {
    expect(await check(schemaRule(rechargeBody.shape.note, t), '   ')).toBe('Enter a note of up to 200 characters.');
    // sort has max(10000) without a message of its own: no English zod text leaks into the form.
    expect(await check(numberRule(packageBody.shape.sort, t), 20_000)).toBe('Please check this field.');
  });
});
