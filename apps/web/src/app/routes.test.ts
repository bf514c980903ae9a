import type { UserDto } from '@resi/contract';
import { describe, expect, it } from 'vitest';
import { menuEntries } from './menu';
import { appRoutes, findRoute } from './routes';

/** The original page table (docs/console.md#pages), row by row: path, activeIndex ('' = none), access area. */
const ORIGINAL_PAGES: ReadonlyArray<[string, string, string]> = [
  ['/center', '1', 'customer'],
  ['/center/buy', '2', 'customer'],
  ['/center/proxy', '3', 'customer'],
  ['/center/rotatingResidential', '6-1', 'customer'],
  ['/center/staticResidential', '6-2', 'customer'],
  ['/center/rechargeDetails', '7', 'customer'],
  ['/user/personal', '0', 'customer'],
  ['/distribution/user', '100-1', 'distributor'],
  ['/distribution/manage', '100-2', 'distributor'],
  ['/distribution/channel', '102-1', 'distributor'],
  ['/manage/log', '102-1', 'admin'],
  ['/manage/user', '101-1', 'admin'],
  ['/manage/order', '101-2', 'admin'],
  ['/manage/pay', '103-1', 'admin'],
  ['/user/login', '', 'public'],
  ['/user/register', '', 'public'],
  ['/error', '', 'public'],
];

/** Pages added to that table: usage record, learn and toolbox, and the admin's catalogue. */
const EXTRA: ReadonlyArray<[string, string, string]> = [
  ['/center/usageRecord', '8', 'customer'],
  ['/learn/knowledge', '9-1', 'customer'],
  ['/learn/faq', '9-2', 'customer'],
  ['/learn/blog', '9-3', 'customer'],
  ['/toolbox', '10', 'customer'],
  ['/manage/goods', '101-3', 'admin'],
  ['/manage/region', '101-4', 'admin'],
  ['/manage/business', '101-5', 'admin'],
  ['/manage/supply', '101-6', 'admin'],
  ['/manage/staticInventory', '101-7', 'admin'],
  ['/manage/statistics', '101-8', 'admin'],
];

const NAMES: Record<string, string> = {
  '/center': 'center',
  '/center/buy': 'buy',
  '/center/proxy': 'proxy',
  '/user/personal': 'personal',
  '/distribution/user': 'distributionUser',
  '/distribution/manage': 'distributionManage',
  '/distribution/channel': 'distributionChannel',
  '/manage/log': 'manageLogs',
  '/manage/user': 'manageUser',
  '/manage/order': 'manageOrder',
  '/manage/pay': 'managePay',
  '/user/login': 'login',
  '/user/register': 'register',
  '/error': 'error',
};

const customer = { role: 'customer', isDistributor: false } as Pick<UserDto, 'role' | 'isDistributor'>;
const distributor = { role: 'customer', isDistributor: true } as Pick<UserDto, 'role' | 'isDistributor'>;
const admin = { role: 'admin', isDistributor: false } as Pick<UserDto, 'role' | 'isDistributor'>;

const paths = (entries: ReturnType<typeof menuEntries>): string[] => entries.flatMap((e) => (e.children ? paths(e.children) : [e.path ?? '']));

describe('route table (docs/console.md#pages)', () => {
  it('has exactly the original paths plus the extra pages', () => {
    expect(appRoutes.map((r) => r.path).sort()).toEqual([...ORIGINAL_PAGES, ...EXTRA].map(([p]) => p).sort());
  });

  it.each([...ORIGINAL_PAGES, ...EXTRA])('%s: activeIndex %s, access %s', (path, index, access) => {
    const route = findRoute(path);
    expect(route?.path).toBe(path);
    expect(route?.activeIndex).toBe(index === '' ? null : index);
    expect(route?.access).toBe(access);
    expect(route?.layout).toBe(access !== 'public');
    expect(route?.title).toBe(`routes.${route?.name}`);
  });

  it('uses the original route names where one was given', () => {
    for (const [path, name] of Object.entries(NAMES)) expect(findRoute(path)?.name).toBe(name);
  });

  it('keeps only the error page alive', () => {
    expect(appRoutes.filter((r) => r.keepAlive).map((r) => r.path)).toEqual(['/error']);
  });

  it('has a lazily loaded page for every route', () => {
    for (const route of appRoutes) expect((route.page as unknown as { $$typeof: symbol }).$$typeof).toBe(Symbol.for('react.lazy'));
  });

  it('matches paths exactly', () => {
    expect(findRoute('/center/unknown')).toBeUndefined();
    expect(findRoute('/center')?.name).toBe('center');
  });
});

describe('side menu from the route table', () => {
  it('shows customers only the customer pages, in table order', () => {
    expect(paths(menuEntries(appRoutes, customer))).toEqual([
      '/center',
      '/center/buy',
      '/center/proxy',
      '/center/rotatingResidential',
      '/center/staticResidential',
      '/center/usageRecord',
      '/center/rechargeDetails',
      '/learn/knowledge',
      '/learn/faq',
      '/learn/blog',
      '/toolbox',
      '/user/personal',
    ]);
  });

  it('carries every navigation label, in its order, with the groups it names', () => {
    const labels = (entries: ReturnType<typeof menuEntries>): string[] => entries.flatMap((e) => [e.label, ...(e.children ? labels(e.children) : [])]);
    expect(labels(menuEntries(appRoutes, customer))).toEqual([
      'menu.center',
      'menu.buy',
      'menu.proxy',
      'menu.proxyManagement',
      'menu.rotatingResidential',
      'menu.staticResidential',
      'menu.usageRecord',
      'menu.rechargeDetails',
      'menu.learn',
      'menu.knowledgeBase',
      'menu.faq',
      'menu.blog',
      'menu.toolbox',
      'menu.personalCenter',
      'menu.myAccount',
    ]);
  });

  it('groups rotating and static residential under proxy management', () => {
    const group = menuEntries(appRoutes, customer).find((e) => e.key === 'group:proxyManagement');
    expect(group?.children?.map((c) => c.path)).toEqual(['/center/rotatingResidential', '/center/staticResidential']);
  });

  it('adds the distribution group for distributors, not the admin group', () => {
    const keys = menuEntries(appRoutes, distributor).map((e) => e.key);
    expect(keys).toContain('group:distribution');
    expect(keys).not.toContain('group:admin');
  });

  it('lists the catalogue, supply, static inventory and statistics pages at the end of the admin group, after the original entries', () => {
    const group = menuEntries(appRoutes, admin).find((e) => e.key === 'group:admin');
    expect(group?.children?.map((c) => c.path)).toEqual(['/manage/user', '/manage/order', '/manage/pay', '/manage/log', '/manage/goods', '/manage/region', '/manage/business', '/manage/supply', '/manage/staticInventory', '/manage/statistics']);
  });

  it('shows admins everything in the layout', () => {
    const all = appRoutes.filter((r) => r.layout).map((r) => r.path).sort();
    expect(paths(menuEntries(appRoutes, admin)).sort()).toEqual(all);
  });

  it('shows nothing to nobody', () => {
    expect(menuEntries(appRoutes, null)).toEqual([]);
  });
});
