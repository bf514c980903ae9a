import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { loginLogFilters } from './login-log-filters';

describe('loginLogFilters', () => {
  it('leaves out empty text and sends the picked days as dates', () => {
    expect(loginLogFilters({ email: '  ', ip: ' 10.0.0.1 ', result: 'locked', range: [dayjs('2026-02-01T10:00:00'), null] })).toEqual({
      email: undefined,
      ip: '10.0.0.1',
      result: 'locked',
      from: '2026-02-01',
      to: undefined,
    });
    expect(loginLogFilters({})).toEqual({ email: undefined, ip: undefined, result: undefined, from: undefined, to: undefined });
  });
});
