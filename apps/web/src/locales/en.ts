import enUS from 'antd/es/locale/en_US';
import { localePack } from './locale-pack';

// dayjs speaks English without a locale file.
export default localePack(import.meta.glob('./en/*.json', { eager: true, import: 'default' }), enUS);
