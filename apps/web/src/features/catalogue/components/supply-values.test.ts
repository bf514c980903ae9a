import { describe, expect, it } from 'vitest';
import { newUpstreamValues, upstreamBody, upstreamValues } from './supply-values';

describe('upstream form values', () => {
  it('leaves the stored password alone unless one is typed', () => {
    const dto = { id: 1, protocol: 'socks5' as const, host: 'us.example.net', port: 1080, username: 'u', password: '••••abcd', country: 'US', state: 'ca', city: null, enabled: true, remark: null };
    const values = upstreamValues(dto);
    expect(values.password).toBe('');
    expect('password' in upstreamBody(values)).toBe(false);
    expect(upstreamBody({ ...values, password: 'n3w' }).password).toBe('n3w');
  });

  it('turns empty optional fields into null and normalises region case', () => {
    const body = upstreamBody({ ...newUpstreamValues(), host: ' de.example.net ', country: 'de', state: ' BE ', remark: '  ' });
    expect(body).toEqual({ protocol: 'http', host: 'de.example.net', port: 8000, username: null, country: 'DE', state: 'be', city: null, enabled: true, remark: null });
  });
});
