import type { AccessPolicy } from '@resi/contract';
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { matchPath } from 'react-router';
import type { MenuIconName } from './menu-icons';

/*
 * The console's pages (docs/console.md#pages): customer, distribution and admin pages, learn and toolbox, and
 * the admin's catalogue pages. This one list drives the router (src/app/router.tsx), the side menu
 * (src/app/menu.tsx), page titles and access. Pages are separate chunks loaded on demand.
 */

export type MenuGroupKey = 'proxyManagement' | 'learn' | 'personalCenter' | 'distribution' | 'admin';

export interface MenuGroup {
  key: MenuGroupKey;
  label: string;
  icon: MenuIconName;
}

export interface AppRoute {
  path: string;
  name: string;
  /** i18n key of the title (document title, page header). */
  title: string;
  /** Only the error page stays mounted when navigated away from (docs/console.md#pages). */
  keepAlive: boolean;
  /** Menu index (docs/console.md#menu); null for routes outside the menu. */
  activeIndex: string | null;
  access: AccessPolicy;
  /** Child of the shared layout with the side menu. */
  layout: boolean;
  /** icon: an @ant-design/icons name from app/menu-icons.tsx, so the table (on every first load) brings no icon. */
  menu?: { label: string; icon: MenuIconName; group?: MenuGroupKey };
  page: LazyExoticComponent<ComponentType>;
  /** Fetches the page's chunk (what `page` renders): started before sign-in is checked on a first load. */
  load: () => Promise<unknown>;
}

/** A page's lazy component and the import behind it, so the chunk can be fetched before it is drawn. */
function pageOf(load: () => Promise<{ default: ComponentType }>): Pick<AppRoute, 'page' | 'load'> {
  return { page: lazy(load), load };
}

export const MENU_GROUPS: readonly MenuGroup[] = [
  { key: 'proxyManagement', label: 'menu.proxyManagement', icon: 'DeploymentUnitOutlined' },
  { key: 'learn', label: 'menu.learn', icon: 'ReadOutlined' },
  { key: 'personalCenter', label: 'menu.personalCenter', icon: 'UserOutlined' },
  { key: 'distribution', label: 'menu.distribution', icon: 'ShareAltOutlined' },
  { key: 'admin', label: 'menu.admin', icon: 'SafetyCertificateOutlined' },
];

const layoutRoute = (route: Omit<AppRoute, 'layout' | 'keepAlive'>): AppRoute => ({ ...route, layout: true, keepAlive: false });

export const appRoutes: readonly AppRoute[] = [
  layoutRoute({
    path: '/center',
    name: 'center',
    title: 'routes.center',
    activeIndex: '1',
    access: 'customer',
    menu: { label: 'menu.center', icon: 'HomeOutlined' },
    ...pageOf(() => import('@/features/dashboard/pages/center-page')),
  }),
  layoutRoute({
    path: '/center/buy',
    name: 'buy',
    title: 'routes.buy',
    activeIndex: '2',
    access: 'customer',
    menu: { label: 'menu.buy', icon: 'ShoppingCartOutlined' },
    ...pageOf(() => import('@/features/buy/pages/buy-page')),
  }),
  layoutRoute({
    path: '/center/proxy',
    name: 'proxy',
    title: 'routes.proxy',
    activeIndex: '3',
    access: 'customer',
    menu: { label: 'menu.proxy', icon: 'ApiOutlined' },
    ...pageOf(() => import('@/features/proxy/pages/get-proxy-page')),
  }),
  layoutRoute({
    path: '/center/rotatingResidential',
    name: 'rotatingResidential',
    title: 'routes.rotatingResidential',
    activeIndex: '6-1',
    access: 'customer',
    menu: { label: 'menu.rotatingResidential', icon: 'GlobalOutlined', group: 'proxyManagement' },
    ...pageOf(() => import('@/features/rotating/pages/rotating-residential-page')),
  }),
  layoutRoute({
    path: '/center/staticResidential',
    name: 'staticResidential',
    title: 'routes.staticResidential',
    activeIndex: '6-2',
    access: 'customer',
    menu: { label: 'menu.staticResidential', icon: 'EnvironmentOutlined', group: 'proxyManagement' },
    ...pageOf(() => import('@/features/static/pages/static-residential-page')),
  }),
  // Usage record, learn and toolbox came without an index of their own; theirs continue after 7 in menu order.
  layoutRoute({
    path: '/center/usageRecord',
    name: 'usageRecord',
    title: 'routes.usageRecord',
    activeIndex: '8',
    access: 'customer',
    menu: { label: 'menu.usageRecord', icon: 'LineChartOutlined' },
    ...pageOf(() => import('@/features/usage/pages/usage-record-page')),
  }),
  layoutRoute({
    path: '/center/rechargeDetails',
    name: 'rechargeDetails',
    title: 'routes.rechargeDetails',
    activeIndex: '7',
    access: 'customer',
    menu: { label: 'menu.rechargeDetails', icon: 'WalletOutlined' },
    ...pageOf(() => import('@/features/recharge/pages/recharge-details-page')),
  }),
  layoutRoute({
    path: '/learn/knowledge',
    name: 'knowledgeBase',
    title: 'routes.knowledgeBase',
    activeIndex: '9-1',
    access: 'customer',
    menu: { label: 'menu.knowledgeBase', icon: 'BookOutlined', group: 'learn' },
    ...pageOf(() => import('@/features/learn/pages/knowledge-base-page')),
  }),
  layoutRoute({
    path: '/learn/faq',
    name: 'faq',
    title: 'routes.faq',
    activeIndex: '9-2',
    access: 'customer',
    menu: { label: 'menu.faq', icon: 'QuestionCircleOutlined', group: 'learn' },
    ...pageOf(() => import('@/features/learn/pages/faq-page')),
  }),
  layoutRoute({
    path: '/learn/blog',
    name: 'blog',
    title: 'routes.blog',
    activeIndex: '9-3',
    access: 'customer',
    menu: { label: 'menu.blog', icon: 'FileTextOutlined', group: 'learn' },
    ...pageOf(() => import('@/features/learn/pages/blog-page')),
  }),
  layoutRoute({
    path: '/toolbox',
    name: 'toolbox',
    title: 'routes.toolbox',
    activeIndex: '10',
    access: 'customer',
    menu: { label: 'menu.toolbox', icon: 'ToolOutlined' },
    ...pageOf(() => import('@/features/toolbox/pages/toolbox-page')),
  }),
  layoutRoute({
    path: '/user/personal',
    name: 'personal',
    title: 'routes.personal',
    activeIndex: '0',
    access: 'customer',
    menu: { label: 'menu.myAccount', icon: 'IdcardOutlined', group: 'personalCenter' },
    ...pageOf(() => import('@/features/account/pages/personal-page')),
  }),
  layoutRoute({
    path: '/distribution/user',
    name: 'distributionUser',
    title: 'routes.distributionUser',
    activeIndex: '100-1',
    access: 'distributor',
    menu: { label: 'menu.distributionUser', icon: 'UsergroupAddOutlined', group: 'distribution' },
    ...pageOf(() => import('@/features/distribution/pages/distribution-users-page')),
  }),
  layoutRoute({
    path: '/distribution/manage',
    name: 'distributionManage',
    title: 'routes.distributionManage',
    activeIndex: '100-2',
    access: 'distributor',
    menu: { label: 'menu.distributionManage', icon: 'CloudServerOutlined', group: 'distribution' },
    ...pageOf(() => import('@/features/distribution/pages/distribution-manage-page')),
  }),
  layoutRoute({
    path: '/distribution/channel',
    name: 'distributionChannel',
    title: 'routes.distributionChannel',
    activeIndex: '102-1',
    access: 'distributor',
    menu: { label: 'menu.distributionChannel', icon: 'BarChartOutlined', group: 'distribution' },
    ...pageOf(() => import('@/features/distribution/pages/channel-statistics-page')),
  }),
  layoutRoute({
    path: '/manage/user',
    name: 'manageUser',
    title: 'routes.manageUser',
    activeIndex: '101-1',
    access: 'admin',
    menu: { label: 'menu.manageUser', icon: 'TeamOutlined', group: 'admin' },
    ...pageOf(() => import('@/features/admin/pages/user-management-page')),
  }),
  layoutRoute({
    path: '/manage/order',
    name: 'manageOrder',
    title: 'routes.manageOrder',
    activeIndex: '101-2',
    access: 'admin',
    menu: { label: 'menu.manageOrder', icon: 'WalletOutlined', group: 'admin' },
    ...pageOf(() => import('@/features/admin/pages/user-recharge-page')),
  }),
  layoutRoute({
    path: '/manage/pay',
    name: 'managePay',
    title: 'routes.managePay',
    activeIndex: '103-1',
    access: 'admin',
    menu: { label: 'menu.managePay', icon: 'CreditCardOutlined', group: 'admin' },
    ...pageOf(() => import('@/features/admin/pages/payment-settings-page')),
  }),
  // Login analysis shares its menu index with channel statistics (102-1; docs/console.md#menu).
  layoutRoute({
    path: '/manage/log',
    name: 'manageLogs',
    title: 'routes.manageLogs',
    activeIndex: '102-1',
    access: 'admin',
    menu: { label: 'menu.manageLogs', icon: 'FileSearchOutlined', group: 'admin' },
    ...pageOf(() => import('@/features/admin/pages/login-logs-page')),
  }),
  // What operating needs beyond the original pages (docs/console.md#pages): the catalogue an admin sells from.
  layoutRoute({
    path: '/manage/goods',
    name: 'manageGoods',
    title: 'routes.manageGoods',
    activeIndex: '101-3',
    access: 'admin',
    menu: { label: 'menu.manageGoods', icon: 'AppstoreOutlined', group: 'admin' },
    ...pageOf(() => import('@/features/catalogue/pages/goods-page')),
  }),
  layoutRoute({
    path: '/manage/region',
    name: 'manageRegion',
    title: 'routes.manageRegion',
    activeIndex: '101-4',
    access: 'admin',
    menu: { label: 'menu.manageRegion', icon: 'PushpinOutlined', group: 'admin' },
    ...pageOf(() => import('@/features/catalogue/pages/regions-page')),
  }),
  layoutRoute({
    path: '/manage/business',
    name: 'manageBusiness',
    title: 'routes.manageBusiness',
    activeIndex: '101-5',
    access: 'admin',
    menu: { label: 'menu.manageBusiness', icon: 'ApartmentOutlined', group: 'admin' },
    ...pageOf(() => import('@/features/catalogue/pages/business-page')),
  }),
  layoutRoute({
    path: '/manage/supply',
    name: 'manageSupply',
    title: 'routes.manageSupply',
    activeIndex: '101-6',
    access: 'admin',
    menu: { label: 'menu.manageSupply', icon: 'CloudServerOutlined', group: 'admin' },
    ...pageOf(() => import('@/features/providers/pages/providers-page')),
  }),
  layoutRoute({
    path: '/manage/staticInventory',
    name: 'manageStaticInventory',
    title: 'routes.manageStaticInventory',
    activeIndex: '101-7',
    access: 'admin',
    menu: { label: 'menu.manageStaticInventory', icon: 'DatabaseOutlined', group: 'admin' },
    ...pageOf(() => import('@/features/static-admin/pages/static-inventory-page')),
  }),
  layoutRoute({
    path: '/manage/statistics',
    name: 'manageStatistics',
    title: 'routes.manageStatistics',
    activeIndex: '101-8',
    access: 'admin',
    menu: { label: 'menu.manageStatistics', icon: 'FundOutlined', group: 'admin' },
    ...pageOf(() => import('@/features/statistics/pages/statistics-page')),
  }),
  {
    path: '/user/login',
    name: 'login',
    title: 'routes.login',
    keepAlive: false,
    activeIndex: null,
    access: 'public',
    layout: false,
    ...pageOf(() => import('@/features/auth/pages/login-page')),
  },
  {
    path: '/user/register',
    name: 'register',
    title: 'routes.register',
    keepAlive: false,
    activeIndex: null,
    access: 'public',
    layout: false,
    ...pageOf(() => import('@/features/auth/pages/register-page')),
  },
  {
    path: '/error',
    name: 'error',
    title: 'routes.error',
    keepAlive: true,
    activeIndex: null,
    access: 'public',
    layout: false,
    ...pageOf(() => import('@/app/pages/error-page')),
  },
];

/** The table entry for a console path (basename removed), if any. */
export function findRoute(pathname: string): AppRoute | undefined {
  return appRoutes.find((route) => matchPath({ path: route.path, end: true }, pathname) !== null);
}
