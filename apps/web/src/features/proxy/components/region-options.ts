import type { Lang, RegionDto } from '@resi/contract';
import { countryName, localizedName } from '@/lib/format';

/** A cascader node: a country (`us`), a state (`state:ca`) or a city (`city:losangeles`). */
export interface RegionOption {
  value: string;
  label: string;
  children?: RegionOption[];
}

export interface RegionChoice {
  country?: string;
  state?: string;
  city?: string;
}

/**
 * Country → state → city from the flat region list, in the operator's order. A city without a state hangs
 * under its country. Areas without their own row (a city of a state that is not listed) still appear,
 * named by their code in capitals, so every enabled area can be chosen. Values are lower case, as proxy usernames are.
 */
export function regionOptions(regions: readonly RegionDto[], lang: Lang): RegionOption[] {
  const countries = new Map<string, RegionOption>();
  const states = new Map<string, RegionOption>();
  const country = (code: string) => {
    const key = code.toLowerCase();
    let node = countries.get(key);
    if (!node) countries.set(key, (node = { value: key, label: countryName(code, lang) }));
    return node;
  };
  const state = (countryCode: string, slug: string) => {
    const key = `${countryCode.toLowerCase()}/${slug}`;
    let node = states.get(key);
    if (!node) {
      // Until its own row names it (below): the code as states are abbreviated (`NY`), never a bare slug.
      node = { value: `state:${slug}`, label: slug.toUpperCase() };
      states.set(key, node);
      (country(countryCode).children ??= []).push(node);
    }
    return node;
  };
  for (const r of regions) {
    const name = localizedName(r.name, lang);
    if (r.city) {
      const parent = r.state ? state(r.country, r.state) : country(r.country);
      (parent.children ??= []).push({ value: `city:${r.city}`, label: name });
    } else if (r.state) {
      state(r.country, r.state).label = name;
    } else {
      country(r.country).label = name;
    }
  }
  return [...countries.values()];
}

/** A cascader path → the query's country/state/city. */
export function regionChoice(path: readonly string[] | null | undefined): RegionChoice {
  const choice: RegionChoice = {};
  for (const value of path ?? []) {
    if (value.startsWith('state:')) choice.state = value.slice(6);
    else if (value.startsWith('city:')) choice.city = value.slice(5);
    else choice.country = value;
  }
  return choice;
}
