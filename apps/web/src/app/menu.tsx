import type { UserDto } from '@resi/contract';
import type { MenuProps } from 'antd';
import type { TFunction } from 'i18next';
import { createElement } from 'react';
import { mayOpen } from '@/lib/access';
import { MENU_ICONS, type MenuIconName } from './menu-icons';
import { MENU_GROUPS, type AppRoute, type MenuGroupKey } from './routes';

/** A menu entry: a route (key = its menu key, see menuKey; path = where it leads) or a group of routes. */
export interface MenuEntry {
  key: string;
  label: string;
  icon: MenuIconName;
  path?: string;
  children?: MenuEntry[];
}

/**
 * The menu key of a route: its menu index (activeIndex, docs/console.md#menu), so the selected item follows the
 * current route's activeIndex. Channel Statistics and Login Analysis share 102-1; where routes share an
 * index the key is `<activeIndex>:<route name>` ("102-1:manageLogs") so each stays one item and selecting one
 * never highlights the other. A route without an index falls back to its path. Keys come from the whole table,
 * not the role-filtered menu, so they are the same for every user.
 */
export function menuKey(route: AppRoute, routes: readonly AppRoute[]): string {
  if (route.activeIndex === null) return route.path;
  const shared = routes.some((other) => other !== route && other.activeIndex === route.activeIndex);
  return shared ? `${route.activeIndex}:${route.name}` : route.activeIndex;
}

/** The menu key to select for the current route, if it is a menu page. */
export function selectedMenuKeys(route: AppRoute | undefined, routes: readonly AppRoute[]): string[] {
  return route?.menu && route.layout ? [menuKey(route, routes)] : [];
}

/**
 * The side menu from the route table: table order, grouped where a route names a group, and only what
 * the user's role may open (contract canAccess). A group without a visible route disappears.
 */
export function menuEntries(routes: readonly AppRoute[], user: Pick<UserDto, 'role' | 'isDistributor'> | null): MenuEntry[] {
  const entries: MenuEntry[] = [];
  const groups = new Map<MenuGroupKey, MenuEntry>();
  for (const route of routes) {
    if (!route.menu || !route.layout || !mayOpen(route.access, user)) continue;
    const entry: MenuEntry = { key: menuKey(route, routes), label: route.menu.label, icon: route.menu.icon, path: route.path };
    const groupKey = route.menu.group;
    if (!groupKey) {
      entries.push(entry);
      continue;
    }
    let group = groups.get(groupKey);
    if (!group) {
      const def = MENU_GROUPS.find((g) => g.key === groupKey);
      if (!def) continue;
      group = { key: `group:${groupKey}`, label: def.label, icon: def.icon, children: [] };
      groups.set(groupKey, group);
      entries.push(group);
    }
    group.children?.push(entry);
  }
  return entries;
}

/** The entries as antd Menu items, labels translated. */
export function toMenuItems(entries: MenuEntry[], t: TFunction): NonNullable<MenuProps['items']> {
  return entries.map((entry) => ({
    key: entry.key,
    icon: createElement(MENU_ICONS[entry.icon]),
    label: t(entry.label),
    children: entry.children ? toMenuItems(entry.children, t) : undefined,
  }));
}

/** Group keys that hold the item with the given menu key (to open them). */
export function openGroupKeys(entries: MenuEntry[], key: string | undefined): string[] {
  return entries.filter((e) => e.children?.some((c) => c.key === key)).map((e) => e.key);
}

/** Where the menu item with the given key leads. */
export function menuPath(entries: MenuEntry[], key: string): string | undefined {
  for (const entry of entries) {
    if (entry.key === key && entry.path) return entry.path;
    const inGroup = entry.children ? menuPath(entry.children, key) : undefined;
    if (inGroup) return inGroup;
  }
  return undefined;
}
