import { MenuFoldOutlined, MenuOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { Button, Drawer, Layout, Typography } from 'antd';
import { Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { useCurrentUser } from '@/api/get-current-user';
import { useSite } from '@/api/get-site';
import { LanguageSwitcher } from '@/components/language-switcher';
import { PageLoading } from '@/components/page-loading';
import { NoticesBell } from '@/features/alerts/components/notices-bell';
import { BREAKPOINT, useMediaQuery } from '@/hooks/use-media-query';
import { storage } from '@/lib/storage';
import { AntdProvider } from '../antd-provider';
import { menuEntries, menuPath, openGroupKeys, selectedMenuKeys, toMenuItems } from '../menu';
import { appRoutes, findRoute } from '../routes';
import { ServerUnreachableAlert } from './server-unreachable-alert';
import { SideMenu } from './side-menu';
import { UserMenu } from './user-menu';

const { Sider, Header, Content, Footer } = Layout;
const SIDER_WIDTH = 248;
const SIDER_COLLAPSED = 72;

/**
 * Shared layout of the signed-in pages: side menu from the route table, header, page title. Below antd's
 * lg breakpoint (992 px) the menu is a drawer over the page, so a phone gives the page its whole width.
 * antd's theme and texts start here, not at the root (app/antd-provider.tsx).
 */
export function AppLayout() {
  return (
    <AntdProvider>
      <ConsoleLayout />
    </AntdProvider>
  );
}

function ConsoleLayout() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const user = useCurrentUser();
  const site = useSite();
  const narrow = !useMediaQuery(BREAKPOINT.lg);
  const [collapsed, setCollapsed] = useState(() => storage.getUiState().menuCollapsed);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const route = findRoute(location.pathname);
  // Selection follows the route's menu index (activeIndex, docs/console.md#menu), not the address.
  const selectedKeys = selectedMenuKeys(route, appRoutes);

  const entries = useMemo(() => menuEntries(appRoutes, user), [user]);
  const items = useMemo(() => toMenuItems(entries, t), [entries, t]);
  const [openKeys, setOpenKeys] = useState<string[]>(() => openGroupKeys(entries, selectedKeys[0]));
  // Entering a page of a closed group (link, address bar) opens that group; any navigation closes the drawer.
  const [seenPath, setSeenPath] = useState(location.pathname);
  if (seenPath !== location.pathname) {
    setSeenPath(location.pathname);
    setDrawerOpen(false);
    const wanted = openGroupKeys(entries, selectedKeys[0]).filter((key) => !openKeys.includes(key));
    if (wanted.length > 0) setOpenKeys([...openKeys, ...wanted]);
  }

  const toggle = () => {
    setCollapsed(!collapsed);
    storage.setUiState({ menuCollapsed: !collapsed });
  };

  const menu = (menuCollapsed: boolean) => (
    <SideMenu
      appName={site.appName}
      collapsed={menuCollapsed}
      items={items}
      selectedKeys={selectedKeys}
      openKeys={openKeys}
      onOpenChange={setOpenKeys}
      onSelect={(key) => {
        // The current page's own entry navigates nowhere, so the drawer is closed here as well.
        setDrawerOpen(false);
        const path = menuPath(entries, key);
        if (path) void navigate(path);
      }}
    />
  );

  return (
    <Layout className="app-layout" hasSider={!narrow}>
      {narrow ? (
        <Drawer
          placement="left"
          open={drawerOpen}
          onClose={() => setDrawerOpen(false)}
          size={SIDER_WIDTH}
          closable={false}
          classNames={{ section: 'app-drawer', body: 'app-drawer__body' }}
          data-testid="menu-drawer"
        >
          {menu(false)}
        </Drawer>
      ) : (
        <Sider width={SIDER_WIDTH} collapsedWidth={SIDER_COLLAPSED} collapsed={collapsed} trigger={null} className="app-sider" theme="dark">
          {menu(collapsed)}
        </Sider>
      )}
      <Layout className="app-main">
        <Header className="app-header">
          {narrow ? (
            <Button
              type="text"
              className="app-header__trigger"
              icon={<MenuOutlined />}
              onClick={() => setDrawerOpen(true)}
              aria-label={t('layout.openMenu')}
              aria-expanded={drawerOpen}
              data-testid="menu-open"
            />
          ) : (
            <Button
              type="text"
              className="app-header__trigger"
              icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
              onClick={toggle}
              aria-label={t(collapsed ? 'layout.expandMenu' : 'layout.collapseMenu')}
            />
          )}
          <div className="app-header__spacer" />
          <NoticesBell />
          <LanguageSwitcher />
          <UserMenu user={user} />
        </Header>
        <Content className="app-content">
          <ServerUnreachableAlert />
          {route ? (
            <div className="page-heading">
              <Typography.Title level={3} className="page-heading__title">
                {t(route.title)}
              </Typography.Title>
            </div>
          ) : null}
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        </Content>
        <Footer className="app-footer">
          © {new Date().getFullYear()} {site.appName}
        </Footer>
      </Layout>
    </Layout>
  );
}
