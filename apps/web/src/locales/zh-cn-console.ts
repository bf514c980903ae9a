import zhCN from 'antd/es/locale/zh_CN';
import { localePack } from './locale-pack';

// Every other namespace, with antd's texts: fetched when a page drawn with antd is first shown (lib/i18n.ts).
export default localePack(import.meta.glob(['./zh-cn/*.json', '!./zh-cn/auth.json', '!./zh-cn/common.json', '!./zh-cn/error.json', '!./zh-cn/routes.json', '!./zh-cn/tips.json', '!./zh-cn/validation.json'], { eager: true, import: 'default' }), zhCN);
