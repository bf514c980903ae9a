import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import {
  BYTES_PER_GB,
  bytesToGb,
  currencyDigits,
  dateRangeQuery,
  formatBalance,
  formatBytes,
  formatCount,
  formatMoney,
  fromMinorUnits,
  gbToBytes,
  localizedName,
  pricePerGb,
  toMinorUnits,
} from './format';

describe('formatBalance', () => {
  it('cuts to three decimals, so a balance moves with use and never shows more than is left', () => {
    const GB = 1024 ** 3;
    expect(formatBalance(10 * GB)).toBe('10 GB');
    expect(formatBalance(10 * GB - Math.round(2.86 * 1024 ** 2))).toBe('9.997 GB');
    expect(formatBalance(10 * GB - 1)).toBe('9.999 GB');
    expect(formatBalance(Math.round(2.86 * 1024 ** 2), 'zh-cn')).toBe('2.859 MB');
    expect(formatBalance(2.5 * 1024 ** 2, 'zh-cn')).toBe('2.5 MB');
    expect(formatBalance(1023)).toBe('1,023 B');
  });
});

describe('formatBytes', () => {
  it('uses binary units with at most two decimals, trailing zeros dropped', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1,023 B');
    expect(formatBytes(1024)).toBe('1 KB');
    expect(formatBytes(10 * BYTES_PER_GB)).toBe('10 GB');
    expect(formatBytes(1.5 * BYTES_PER_GB)).toBe('1.5 GB');
    expect(formatBytes(BYTES_PER_GB / 3)).toBe('341.33 MB');
    expect(formatBytes(2048 * BYTES_PER_GB)).toBe('2 TB');
  });

  it('keeps the sign of a negative amount and groups digits per language', () => {
    expect(formatBytes(-2 * BYTES_PER_GB)).toBe('-2 GB');
    expect(formatBytes(1000 * 1024 ** 5, 'zh-cn')).toBe('1,000 PB');
  });
});

describe('GB ↔ bytes', () => {
  it('converts both ways, rounding to whole bytes', () => {
    expect(gbToBytes(1)).toBe(1_073_741_824);
    expect(gbToBytes(0.001)).toBe(1_073_742);
    expect(bytesToGb(gbToBytes(12.5))).toBe(12.5);
  });
});

describe('money', () => {
  it('knows the minor unit of each currency', () => {
    expect(currencyDigits('USD')).toBe(2);
    expect(currencyDigits('JPY')).toBe(0);
    expect(currencyDigits('KWD')).toBe(3);
    expect(currencyDigits('not a code')).toBe(2);
  });

  it('converts between minor units and currency units, rounding to whole minor units', () => {
    expect(fromMinorUnits(2500, 'USD')).toBe(25);
    expect(toMinorUnits(25.5, 'USD')).toBe(2550);
    expect(toMinorUnits(0.1 + 0.2, 'USD')).toBe(30);
    expect(toMinorUnits(500, 'JPY')).toBe(500);
  });

  it('formats in the language and currency', () => {
    expect(formatMoney(2500, 'USD', 'en')).toBe('$25.00');
    expect(formatMoney(2500, 'USD', 'zh-cn')).toBe('US$25.00');
    expect(formatMoney(123456, 'EUR', 'en')).toBe('€1,234.56');
    expect(formatMoney(500, 'JPY', 'en')).toBe('¥500');
  });

  it('prices one GB of a package', () => {
    expect(pricePerGb(2500, 10 * BYTES_PER_GB)).toBe(250);
    expect(pricePerGb(300, BYTES_PER_GB)).toBe(300);
    expect(pricePerGb(100, 0)).toBe(0);
  });
});

describe('localizedName and dateRangeQuery', () => {
  it('picks the name of the interface language', () => {
    const name = { en: 'United States', 'zh-cn': '美国', zh: '美國' };
    expect(localizedName(name, 'en')).toBe('United States');
    expect(localizedName(name, 'zh-cn')).toBe('美国');
    expect(localizedName(name, 'zh')).toBe('美國');
  });

  it('turns a picked range into inclusive YYYY-MM-DD bounds, leaving out open ends', () => {
    expect(dateRangeQuery([dayjs('2026-03-01T15:00:00'), dayjs('2026-03-31T01:00:00')])).toEqual({ from: '2026-03-01', to: '2026-03-31' });
    expect(dateRangeQuery([null, dayjs('2026-03-31')])).toEqual({ from: undefined, to: '2026-03-31' });
    expect(dateRangeQuery(null)).toEqual({ from: undefined, to: undefined });
  });
});

describe('formatCount', () => {
  it('writes a count in each language, the same formatter serving every call after the first', () => {
    expect(formatCount(12345, 'en')).toBe('12,345');
    expect(formatCount(12345, 'zh-cn')).toBe('12,345');
    expect(formatCount(12345, 'zh')).toBe('12,345');
    expect(formatCount(0.5, 'en')).toBe('0.5');
    // An unknown currency is still refused by Intl each time (not kept), so money falls back to plain digits.
    expect(formatMoney(250, 'ZZ', 'en')).toBe('2.50 ZZ');
    expect(formatMoney(250, 'ZZ', 'en')).toBe('2.50 ZZ');
  });
});
