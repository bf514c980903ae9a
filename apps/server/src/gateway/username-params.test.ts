import * as contract from '@resi/contract';
import { describe, expect, it } from 'vitest';
import { STICKY_DEFAULT_LIFE, STICKY_MAX_LIFE, STICKY_MIN_LIFE, accountOf, parseUsername } from './username-params';

describe('username parameters (docs/gateway.md#username)', () => {
  it('reads a bare account as rotating, anywhere, default lifetime', () => {
    expect(parseUsername('alice01')).toEqual({ account: 'alice01', country: null, state: null, city: null, session: null, lifeMinutes: 10 });
  });

  it('reads every parameter, in the documented order or any other', () => {
    const full = { account: 'alice01', country: 'US', state: 'ca', city: 'losangeles', session: 'Ab12cd34', lifeMinutes: 30 };
    expect(parseUsername('alice01-country-us-state-ca-city-losangeles-session-Ab12cd34-life-30')).toEqual(full);
    expect(parseUsername('ALICE01-life-30-session-Ab12cd34-City-LosAngeles-STATE-CA-country-US')).toEqual(full);
  });

  it('takes city without state, and the lifetime bounds 1 and 120', () => {
    expect(parseUsername('bob_2-country-de-city-berlin')?.city).toBe('berlin');
    expect(parseUsername('bob_2-session-x-life-1')?.lifeMinutes).toBe(1);
    expect(parseUsername('bob_2-session-x-life-120')?.lifeMinutes).toBe(120);
  });

  it.each([
    ['unknown key', 'alice01-zone-x'],
    ['key without value', 'alice01-country'],
    ['duplicate key', 'alice01-country-us-country-de'],
    ['empty value', 'alice01-country-'],
    ['not an ISO 3166-1 code', 'alice01-country-uk'],
    ['three-letter country', 'alice01-country-usa'],
    ['state without country', 'alice01-state-ca'],
    ['city without country', 'alice01-city-paris'],
    ['bad place', 'alice01-country-us-city-los_angeles'],
    ['bad session', 'alice01-session-a.b'],
    ['life without session', 'alice01-life-30'],
    ['life 0', 'alice01-session-x-life-0'],
    ['life 121', 'alice01-session-x-life-121'],
    ['life not a number', 'alice01-session-x-life-ten'],
    ['empty account', '-country-us'],
    ['empty username', ''],
  ])('refuses %s', (_, username) => {
    expect(parseUsername(username)).toBeNull();
  });

  it('uses the sticky lifetime bounds of the contract', () => {
    expect([STICKY_MIN_LIFE, STICKY_MAX_LIFE, STICKY_DEFAULT_LIFE]).toEqual([contract.STICKY_MIN_LIFE, contract.STICKY_MAX_LIFE, contract.STICKY_DEFAULT_LIFE]);
  });

  it('names the account before the first dash, lower-cased', () => {
    expect(accountOf('Alice01-country-us')).toBe('alice01');
    expect(accountOf('alice01')).toBe('alice01');
  });
});
