import zhTW from 'antd/es/locale/zh_TW';
import { localePack } from './locale-pack';

// Every other namespace, with antd's texts: fetched when a page drawn with antd is first shown (lib/i18n.ts).
export default localePack(import.meta.glob(['./zh/*.json', '!./zh/auth.json', '!./zh/common.json', '!./zh/error.json', '!./zh/routes.json', '!./zh/tips.json', '!./zh/validation.json'], { eager: true, import: 'default' }), zhTW);
