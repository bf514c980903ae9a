import { SearchOutlined } from '@ant-design/icons';
import { Button, Form, Space } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The end of every list's filter form: Search submits it, Reset empties it and shows the list unfiltered;
 * `children` are the list's own extra buttons (an export).
 */
export function FilterButtons({ searchTestId, onReset, children }: { searchTestId: string; onReset: () => void; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Form.Item>
      <Space wrap>
        <Button type="primary" htmlType="submit" icon={<SearchOutlined />} data-testid={searchTestId}>
          {t('admin.search')}
        </Button>
        <Button onClick={onReset}>{t('commerce.filters.reset')}</Button>
        {children}
      </Space>
    </Form.Item>
  );
}
