import zhTW from 'antd/es/locale/zh_TW';
import 'dayjs/locale/zh-tw';
import { localePack } from './locale-pack';

export default localePack(import.meta.glob('./zh/*.json', { eager: true, import: 'default' }), zhTW);
