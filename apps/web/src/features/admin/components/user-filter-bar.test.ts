import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { userFilters } from './user-filter-bar';

describe('user filter bar', () => {
  it('turns the filter form into the list query, leaving out empty text and an empty referrer', () => {
    expect(
      userFilters({ email: ' Alice ', account: '  ', distributor: 'true', referrerId: null, channelKey: 'qd', range: [dayjs('2026-02-01'), dayjs('2026-02-03')] }),
    ).toEqual({
      email: 'Alice',
      account: undefined,
      role: undefined,
      status: undefined,
      distributor: 'true',
      referrerId: undefined,
      channelKey: 'qd',
      channelValue: undefined,
      from: '2026-02-01',
      to: '2026-02-03',
    });
    expect(userFilters({ referrerId: 7, status: 'disabled' })).toMatchObject({ referrerId: 7, status: 'disabled' });
  });
});
