import enUS from 'antd/es/locale/en_US';
import { localePack } from './locale-pack';

// Every other namespace, with antd's texts: fetched when a page drawn with antd is first shown (lib/i18n.ts).
export default localePack(import.meta.glob(['./en/*.json', '!./en/auth.json', '!./en/common.json', '!./en/error.json', '!./en/routes.json', '!./en/tips.json', '!./en/validation.json'], { eager: true, import: 'default' }), enUS);
