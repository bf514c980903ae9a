import type { UserDto } from '@resi/contract';
import type { MenuProps } from 'antd';
import type { TFunction } from 'i18next';
import { createElement, type ComponentType } from 'react';
import { mayOpen } from '@/lib/access';
import { MENU_GROUPS, type AppRoute, type MenuGroupKey } from './routes';

/** A menu entry: a route (key = its path) or a group of routes. */
export interface MenuEntry {
  key: string;
  label: string;
  icon: ComponentType;
  children?: MenuEntry[];
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
    const entry: MenuEntry = { key: route.path, label: route.menu.label, icon: route.menu.icon };
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
    icon: createElement(entry.icon),
    label: t(entry.label),
    children: entry.children ? toMenuItems(entry.children, t) : undefined,
  }));
}

/** Group keys that hold the given path (to open them). */
export function openGroupKeys(entries: MenuEntry[], path: string): string[] {
  return entries.filter((e) => e.children?.some((c) => c.key === path)).map((e) => e.key);
}
