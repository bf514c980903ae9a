import { Menu, type MenuProps } from 'antd';
import { BrandLogo } from '@/components/brand-logo';

interface SideMenuProps {
  appName: string;
  collapsed: boolean;
  items: NonNullable<MenuProps['items']>;
  selectedKeys: string[];
  openKeys: string[];
  onOpenChange: (keys: string[]) => void;
  onSelect: (key: string) => void;
}

/** Brand and the menu from the route table; the same in the wide screen's side bar and the phone's drawer. */
export function SideMenu({ appName, collapsed, items, selectedKeys, openKeys, onOpenChange, onSelect }: SideMenuProps) {
  return (
    <>
      <div className="app-sider__brand">
        <BrandLogo name={appName} collapsed={collapsed} light />
      </div>
      <Menu
        theme="dark"
        mode="inline"
        className="app-menu"
        items={items}
        selectedKeys={selectedKeys}
        // A collapsed menu opens groups as pop-ups on hover; the remembered open groups are for the full menu.
        {...(collapsed ? {} : { openKeys, onOpenChange })}
        onClick={({ key }) => onSelect(key)}
        data-testid="side-menu"
      />
    </>
  );
}
