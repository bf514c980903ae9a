import 'dayjs/locale/zh-cn';
import { localePack } from './locale-pack';

// The public pages' texts (PUBLIC_NAMESPACES in locale-pack.ts); the console's come with zh-cn-console.ts.
export default localePack(import.meta.glob(['./zh-cn/auth.json', './zh-cn/common.json', './zh-cn/error.json', './zh-cn/routes.json', './zh-cn/tips.json', './zh-cn/validation.json'], { eager: true, import: 'default' }));
