import type { RegionDto } from '@resi/contract';
import { describe, expect, it } from 'vitest';
import { regionChoice, regionOptions } from './region-options';

let id = 0;
const region = (country: string, state: string | null, city: string | null, en: string, zh = en): RegionDto => ({
  id: ++id,
  country,
  state,
  city,
  name: { en, 'zh-cn': zh, zh },
  poolSize: 10,
  sort: 0,
  enabled: true,
});

const regions = [
  region('US', null, null, 'United States', '美國'),
  region('US', 'ca', null, 'California', '加州'),
  region('US', 'ca', 'losangeles', 'Los Angeles', '洛杉磯'),
  region('US', null, 'newyork', 'New York City'),
  region('GB', 'eng', 'london', 'London'),
];

describe('region options', () => {
  it('nests states and cities under their country with names in the interface language', () => {
    expect(regionOptions(regions, 'zh')).toEqual([
      {
        value: 'us',
        label: '美國',
        children: [
          { value: 'state:ca', label: '加州', children: [{ value: 'city:losangeles', label: '洛杉磯' }] },
          { value: 'city:newyork', label: 'New York City' },
        ],
      },
      // No rows for the country or the state: named by the runtime and by the code.
      { value: 'gb', label: '英國', children: [{ value: 'state:eng', label: 'ENG', children: [{ value: 'city:london', label: 'London' }] }] },
    ]);
  });

  it('turns a cascader path into the query', () => {
    expect(regionChoice(['us', 'state:ca', 'city:losangeles'])).toEqual({ country: 'us', state: 'ca', city: 'losangeles' });
    expect(regionChoice(['us', 'city:newyork'])).toEqual({ country: 'us', city: 'newyork' });
    expect(regionChoice(['us'])).toEqual({ country: 'us' });
    expect(regionChoice(undefined)).toEqual({});
  });
});
