import { localizedText } from '@resi/contract';
import { Col, Form, Input, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { LANGUAGE_LABELS } from '@/lib/i18n';
import { schemaRule } from '@/lib/form-rules';

/** A name typed once per language: English, 简体中文, 繁體中文 (all three required, as the server wants). */
export function LocalizedNameFields({ label }: { label: string }) {
  const { t } = useTranslation();
  return (
    <Form.Item label={label} required className="localized-name">
      <Row gutter={8}>
        {(['en', 'zh-cn', 'zh'] as const).map((lang) => (
          <Col key={lang} xs={24} sm={8}>
            <Form.Item name={['name', lang]} rules={[schemaRule(localizedText.shape[lang], t)]} className="localized-name__item">
              <Input prefix={<span className="localized-name__lang">{LANGUAGE_LABELS[lang]}</span>} maxLength={100} data-testid={`name-${lang}`} />
            </Form.Item>
          </Col>
        ))}
      </Row>
    </Form.Item>
  );
}
