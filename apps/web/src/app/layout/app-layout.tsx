import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { Button, Layout, Menu, Typography } from 'antd';
import { Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { useCurrentUser } from '@/api/get-current-user';
import { useSite } from '@/api/get-site';
import { BrandLogo } from '@/components/brand-logo';
import { LanguageSwitcher } from '@/components/language-switcher';
import { PageLoading } from '@/components/page-loading';
import { storage } from '@/lib/storage';
import { menuEntries, menuPath, openGroupKeys, selectedMenuKeys, toMenuItems } from '../menu';
import { appRoutes, findRoute } from '../routes';
import { UserMenu } from './user-menu';

const { Sider, Header, Content, Footer } = Layout;
const SIDER_WIDTH = 248;
const SIDER_COLLAPSED = 72;

/** Shared layout of the signed-in pages: side menu from the route table, header, page title. */
export function AppLayout() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const user = useCurrentUser();
  const site = useSite();
  const [collapsed, setCollapsed] = useState(() => storage.getUiState().menuCollapsed);
  const route = findRoute(location.pathname);
  // Selection follows the route's menu index (activeIndex, docs/console.md#menu), not the address.
  const selectedKeys = selectedMenuKeys(route, appRoutes);

  const entries = useMemo(() => menuEntries(appRoutes, user), [user]);
  const items = useMemo(() => toMenuItems(entries, t), [entries, t]);
  const [openKeys, setOpenKeys] = useState<string[]>(() => openGroupKeys(entries, selectedKeys[0]));
  // Entering a page of a closed group (link, address bar) opens that group.
  const [seenPath, setSeenPath] = useState(location.pathname);
  if (seenPath !== location.pathname) {
    setSeenPath(location.pathname);
    const wanted = openGroupKeys(entries, selectedKeys[0]).filter((key) => !openKeys.includes(key));
    if (wanted.length > 0) setOpenKeys([...openKeys, ...wanted]);
  }

  const toggle = () => {
    setCollapsed(!collapsed);
    storage.setUiState({ menuCollapsed: !collapsed });
  };

  return (
    <Layout className="app-layout">
      <Sider
        width={SIDER_WIDTH}
        collapsedWidth={SIDER_COLLAPSED}
        collapsed={collapsed}
        breakpoint="lg"
        // Narrow screens collapse the menu; widening again restores what the user chose.
        onBreakpoint={(broken) => setCollapsed(broken || storage.getUiState().menuCollapsed)}
        trigger={null}
        className="app-sider"
        theme="dark"
      >
        <div className="app-sider__brand">
          <BrandLogo name={site.appName} collapsed={collapsed} light />
        </div>
        <Menu
          theme="dark"
          mode="inline"
          items={items}
          selectedKeys={selectedKeys}
          {...(collapsed ? {} : { openKeys, onOpenChange: (keys: string[]) => setOpenKeys(keys) })}
          onClick={({ key }) => {
            const path = menuPath(entries, key);
            if (path) void navigate(path);
          }}
          data-testid="side-menu"
        />
      </Sider>
      <Layout className="app-main" style={{ marginInlineStart: collapsed ? SIDER_COLLAPSED : SIDER_WIDTH }}>
        <Header className="app-header">
          <Button
            type="text"
            className="app-header__trigger"
            icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
            onClick={toggle}
            aria-label={t(collapsed ? 'layout.expandMenu' : 'layout.collapseMenu')}
          />
          <div className="app-header__spacer" />
          <LanguageSwitcher />
          <UserMenu user={user} />
        </Header>
        <Content className="app-content">
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
