import { localePack } from './locale-pack';

// dayjs speaks English without a locale file.
// The public pages' texts (PUBLIC_NAMESPACES in locale-pack.ts); the console's come with en-console.ts.
export default localePack(import.meta.glob(['./en/auth.json', './en/common.json', './en/error.json', './en/routes.json', './en/tips.json', './en/validation.json'], { eager: true, import: 'default' }));
