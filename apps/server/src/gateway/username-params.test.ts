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

  it('takes city without state, and the lifetime bounds 1 and 1440 (a day, as Oxylabs and Decodo allow)', () => {
    expect(parseUsername('bob_2-country-de-city-berlin')).toMatchObject({ city: 'berlin' });
    expect(parseUsername('bob_2-session-x-life-1')).toMatchObject({ lifeMinutes: 1 });
    expect(parseUsername('bob_2-session-x-life-1440')).toMatchObject({ lifeMinutes: 1440 });
  });

  it.each([
    ['unknown key', 'alice01-zone-x', 'key', '"zone" is not a parameter (country, state, city, session, life)'],
    ['key without value', 'alice01-country', 'country', 'has no value'],
    ['duplicate key', 'alice01-country-us-country-de', 'country', 'is given twice'],
    ['empty value', 'alice01-country-', 'country', '"" is not a two-letter ISO 3166-1 country code'],
    ['not an ISO 3166-1 code', 'alice01-country-uk', 'country', '"uk" is not a two-letter ISO 3166-1 country code'],
    ['three-letter country', 'alice01-country-usa', 'country', '"usa" is not a two-letter ISO 3166-1 country code'],
    ['state without country', 'alice01-state-ca', 'state', 'needs a country (-country-CC)'],
    ['city without country', 'alice01-city-paris', 'city', 'needs a country (-country-CC)'],
    ['bad place', 'alice01-country-us-city-los_angeles', 'city', '"los_angeles" must be 1 to 32 letters or digits'],
    ['bad session', 'alice01-session-a.b', 'session', '"a.b" must be 1 to 64 letters, digits or _'],
    ['life without session', 'alice01-life-30', 'life', 'needs a session (-session-ID)'],
    ['life 0', 'alice01-session-x-life-0', 'life', '"0" must be a whole number of minutes from 1 to 1440'],
    ['life 1441', 'alice01-session-x-life-1441', 'life', '"1441" must be a whole number of minutes from 1 to 1440'],
    ['life not a number', 'alice01-session-x-life-ten', 'life', '"ten" must be a whole number of minutes from 1 to 1440'],
    ['empty account', '-country-us', 'account', 'the account name before the first "-" is empty'],
    ['empty username', '', 'account', 'the account name before the first "-" is empty'],
  ])('refuses %s, naming the parameter', (_, username, bad, why) => {
    expect(parseUsername(username)).toEqual({ bad, why });
  });

  it('quotes a client\'s own text printable and short', () => {
    expect(parseUsername(`alice01-session-${'x'.repeat(70)}\r\n`)).toEqual({ bad: 'session', why: `"${'x'.repeat(40)}…" must be 1 to 64 letters, digits or _` });
    expect(parseUsername('alice01-\u00e9t\u00e9-x')).toEqual({ bad: 'key', why: '"?t?" is not a parameter (country, state, city, session, life)' });
  });

  it('uses the sticky lifetime bounds of the contract', () => {
    expect([STICKY_MIN_LIFE, STICKY_MAX_LIFE, STICKY_DEFAULT_LIFE]).toEqual([contract.STICKY_MIN_LIFE, contract.STICKY_MAX_LIFE, contract.STICKY_DEFAULT_LIFE]);
  });

  it('names the account before the first dash, lower-cased', () => {
    expect(accountOf('Alice01-country-us')).toBe('alice01');
    expect(accountOf('alice01')).toBe('alice01');
  });
});
