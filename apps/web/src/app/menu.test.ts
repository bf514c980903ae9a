import type { UserDto } from '@resi/contract';
import { describe, expect, it } from 'vitest';
import { menuEntries, menuKey, menuPath, openGroupKeys, selectedMenuKeys, type MenuEntry } from './menu';
import { appRoutes, findRoute, type AppRoute } from './routes';

const admin = { role: 'admin', isDistributor: true } as Pick<UserDto, 'role' | 'isDistributor'>;
const leaves = (entries: MenuEntry[]): MenuEntry[] => entries.flatMap((e) => (e.children ? leaves(e.children) : [e]));
const route = (path: string): AppRoute => {
  const found = findRoute(path);
  if (!found) throw new Error(`no route ${path}`);
  return found;
};

describe('menu keys from the menu index (activeIndex)', () => {
  it('keys a route by its activeIndex', () => {
    expect(menuKey(route('/center'), appRoutes)).toBe('1');
    expect(menuKey(route('/center/rotatingResidential'), appRoutes)).toBe('6-1');
    expect(menuKey(route('/user/personal'), appRoutes)).toBe('0');
    expect(menuKey(route('/manage/pay'), appRoutes)).toBe('103-1');
  });

  it('adds the route name where two routes share one index (102-1)', () => {
    expect(route('/distribution/channel').activeIndex).toBe('102-1');
    expect(route('/manage/log').activeIndex).toBe('102-1');
    expect(menuKey(route('/distribution/channel'), appRoutes)).toBe('102-1:distributionChannel');
    expect(menuKey(route('/manage/log'), appRoutes)).toBe('102-1:manageLogs');
  });

  it('gives every menu item of the full menu its own key', () => {
    const keys = leaves(menuEntries(appRoutes, admin)).map((e) => e.key);
    expect(keys.length).toBe(appRoutes.filter((r) => r.layout).length);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it.each(appRoutes.filter((r) => r.layout).map((r) => [r.path] as const))('selects exactly the item of %s, which leads back there', (path) => {
    const entries = menuEntries(appRoutes, admin);
    const selected = selectedMenuKeys(route(path), appRoutes);
    expect(selected).toHaveLength(1);
    const matching = leaves(entries).filter((e) => selected.includes(e.key));
    expect(matching.map((e) => e.path)).toEqual([path]);
    expect(menuPath(entries, selected[0] ?? '')).toBe(path);
  });

  it('selects nothing outside the menu', () => {
    expect(selectedMenuKeys(route('/user/login'), appRoutes)).toEqual([]);
    expect(selectedMenuKeys(undefined, appRoutes)).toEqual([]);
  });

  it('opens only the group that holds the selected item', () => {
    const entries = menuEntries(appRoutes, admin);
    expect(openGroupKeys(entries, selectedMenuKeys(route('/manage/log'), appRoutes)[0])).toEqual(['group:admin']);
    expect(openGroupKeys(entries, selectedMenuKeys(route('/distribution/channel'), appRoutes)[0])).toEqual(['group:distribution']);
    expect(openGroupKeys(entries, selectedMenuKeys(route('/center/staticResidential'), appRoutes)[0])).toEqual(['group:proxyManagement']);
    expect(openGroupKeys(entries, selectedMenuKeys(route('/center'), appRoutes)[0])).toEqual([]);
  });

  it('has no destination for a group key', () => {
    expect(menuPath(menuEntries(appRoutes, admin), 'group:admin')).toBeUndefined();
  });
});
