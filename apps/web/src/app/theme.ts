import type { ThemeConfig } from 'antd';

export const BRAND_COLOR = '#1d4ed8';
const SIDER_BG = '#0b1631';

/** The console's look: one brand colour, calm neutrals, a dark navy side menu. */
export const theme: ThemeConfig = {
  cssVar: { key: 'resi' },
  token: {
    colorPrimary: BRAND_COLOR,
    colorInfo: BRAND_COLOR,
    colorSuccess: '#059669',
    colorLink: BRAND_COLOR,
    borderRadius: 8,
    colorBgLayout: '#f3f5f9',
    fontFamily:
      "Inter, -apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'PingFang SC', 'PingFang TC', 'Hiragino Sans GB', 'Microsoft YaHei', 'WenQuanYi Micro Hei', sans-serif",
  },
  components: {
    Layout: { siderBg: SIDER_BG, headerBg: '#ffffff', headerHeight: 60, headerPadding: '0 20px' },
    Menu: {
      darkItemBg: SIDER_BG,
      darkSubMenuItemBg: '#08112a',
      darkItemSelectedBg: BRAND_COLOR,
      darkItemColor: 'rgba(226, 232, 240, 0.78)',
      itemBorderRadius: 8,
      itemMarginInline: 10,
    },
    Card: { borderRadiusLG: 12 },
    Button: { fontWeight: 500 },
  },
};
