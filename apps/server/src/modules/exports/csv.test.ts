import { describe, expect, it } from 'vitest';
import { type CsvColumn, decimalAmount, toCsv, wordsAndCode } from './csv';
import { fileStamp } from './export-request';

/** A translator that shows which key it was asked for. */
const t = (key: string) => `<${key}>`;

const columns: CsvColumn<{ a: string | number | null; b: string }>[] = [
  { key: 'a', value: (r) => r.a },
  { key: 'b', value: (r, lang) => `${r.b}/${lang}` },
];

describe('CSV text', () => {
  it('starts with a BOM, ends records with CRLF and writes null as an empty cell', () => {
    expect(toCsv(['A', 'B'], columns, [{ a: 1, b: 'x' }, { a: null, b: 'y' }], 'zh', t)).toBe('\uFEFFA,B\r\n1,x/zh\r\n,y/zh\r\n');
  });

  it('quotes separators, quotes and any line break (RFC 4180)', () => {
    const text = toCsv(['A', 'B'], columns, [{ a: 'x,y', b: 'say "hi"' }, { a: 'one\ntwo', b: 'three\rfour' }], 'en', t);
    expect(text).toBe('\uFEFFA,B\r\n"x,y","say ""hi""/en"\r\n"one\ntwo","three\rfour/en"\r\n');
  });

  it('escapes cells starting with = + - @ tab or CR with an apostrophe, headers included', () => {
    const rows = ['=1+1', '+1', '-1', '@A1', '\t=1', '\r=1', 'a=1', ' =1'].map((a) => ({ a, b: 'x' }));
    const cells = toCsv(['=H', 'B'], columns, rows, 'en', t).slice(1).split('\r\n').map((line) => line.split(',')[0]);
    expect(cells).toEqual(["'=H", "'=1+1", "'+1", "'-1", "'@A1", "'\t=1", '"\'\r=1"', 'a=1', ' =1', '']);
  });
});

describe('values that have words', () => {
  it("write the caller's words and, beside them, the code", () => {
    const kind = wordsAndCode<{ kind: string | null }>('kind', 'orderKind', (r) => r.kind);
    expect(toCsv(['Type', 'Type (code)'], kind, [{ kind: 'dynamic' }, { kind: null }], 'en', t)).toBe('\uFEFFType,Type (code)\r\n<words.orderKind.dynamic>,dynamic\r\n,\r\n');
  });
});

describe('amounts and file names', () => {
  it('writes minor units as a decimal with the currency’s own digits', () => {
    expect(decimalAmount(2550, 'USD')).toBe('25.50');
    expect(decimalAmount(0, 'USD')).toBe('0.00');
    expect(decimalAmount(500, 'JPY')).toBe('500');
    expect(decimalAmount(1234, 'XXQ')).toBe('12.34');
  });

  it('stamps file names with the UTC time', () => {
    expect(fileStamp(new Date('2026-11-23T08:05:09.123Z'))).toBe('20261123-080509');
  });
});
