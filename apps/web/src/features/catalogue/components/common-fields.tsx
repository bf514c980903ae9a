import { Form, InputNumber, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { numberRule, type FieldSchema } from '@/lib/form-rules';

/** Sort order and the enabled switch, shared by every catalogue form. */
export function SortAndEnabledFields({ sortSchema }: { sortSchema: FieldSchema }) {
  const { t } = useTranslation();
  return (
    <div className="form-row">
      <Form.Item name="sort" label={t('catalogue.fields.sort')} extra={t('catalogue.help.sort')} rules={[numberRule(sortSchema, t)]}>
        <InputNumber min={0} max={10000} precision={0} className="full-width" />
      </Form.Item>
      <Form.Item name="enabled" label={t('catalogue.fields.enabled')} valuePropName="checked">
        <Switch />
      </Form.Item>
    </div>
  );
}
