import zhCN from 'antd/es/locale/zh_CN';
import 'dayjs/locale/zh-cn';
import { localePack } from './locale-pack';

export default localePack(import.meta.glob('./zh-cn/*.json', { eager: true, import: 'default' }), zhCN);
