import 'dayjs/locale/zh-tw';
import { localePack } from './locale-pack';

// The public pages' texts (PUBLIC_NAMESPACES in locale-pack.ts); the console's come with zh-console.ts.
export default localePack(import.meta.glob(['./zh/auth.json', './zh/common.json', './zh/error.json', './zh/routes.json', './zh/tips.json', './zh/validation.json'], { eager: true, import: 'default' }));
