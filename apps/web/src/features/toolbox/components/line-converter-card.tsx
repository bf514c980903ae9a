import { CopyOutlined } from '@ant-design/icons';
import { LINE_FORMATS, type LineFormat, type ProxyEndpoint } from '@resi/contract';
import { Alert, Button, Card, Empty, Form, Input, Radio } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { copyText } from '@/lib/clipboard';
import { notify } from '@/lib/notify';
import { convertLines } from './convert-lines';

const FORMAT_LABEL: Record<LineFormat, string> = {
  'host:port:user:pass': 'toolbox.converter.format.hostPortUserPass',
  'user:pass@host:port': 'toolbox.converter.format.userPassAtHostPort',
  url: 'toolbox.converter.format.url',
  curl: 'toolbox.converter.format.curl',
};

/** Paste proxy lines in any Get Proxy format, get them in another; runs in the browser, nothing is sent. */
export function LineConverterCard({ endpoint }: { endpoint: ProxyEndpoint }) {
  const { t } = useTranslation();
  const [input, setInput] = useState('');
  const [target, setTarget] = useState<LineFormat>('url');
  const result = useMemo(() => convertLines(input, target, endpoint), [input, target, endpoint]);

  const copyAll = async () => {
    if (await copyText(result.lines.join('\n'))) notify.success(t('toolbox.converter.copied', { count: result.lines.length }));
    else notify.warning(t('toolbox.converter.copyFailed'));
  };

  return (
    <Card variant="borderless" className="surface-card" title={t('toolbox.converter.title')} data-testid="line-converter">
      <p className="muted">{t('toolbox.converter.intro', { socksPort: endpoint.socksPort })}</p>
      <Form name="line-converter" layout="vertical">
        <Form.Item label={t('toolbox.converter.input')} htmlFor="converter-input">
          <Input.TextArea
            id="converter-input"
            className="mono"
            rows={6}
            value={input}
            onChange={(e) => setInput(e.target.value)}
            placeholder={`${endpoint.host}:${endpoint.httpPort}:USERNAME:PASSWORD`}
            spellCheck={false}
            data-testid="converter-input"
          />
        </Form.Item>
        <Form.Item label={t('toolbox.converter.target')}>
          <Radio.Group
            value={target}
            onChange={(e) => setTarget(e.target.value as LineFormat)}
            options={LINE_FORMATS.map((f) => ({ value: f, label: t(FORMAT_LABEL[f]) }))}
            data-testid="converter-target"
          />
        </Form.Item>
      </Form>
      {result.errors.length > 0 ? (
        <Alert
          type="warning"
          showIcon
          className="converter-errors"
          title={t('toolbox.converter.errors', { count: result.errors.length })}
          description={
            <ul className="converter-errors__list" data-testid="converter-errors">
              {result.errors.map((e) => (
                <li key={e.line}>
                  {t('toolbox.converter.errorLine', { line: e.line })} <code className="mono">{e.text}</code>
                </li>
              ))}
            </ul>
          }
        />
      ) : null}
      <div className="converter-output__head">
        <span className="converter-output__title">{t('toolbox.converter.output', { count: result.lines.length })}</span>
        <Button icon={<CopyOutlined />} onClick={() => void copyAll()} disabled={result.lines.length === 0} data-testid="converter-copy">
          {t('toolbox.converter.copyAll')}
        </Button>
      </div>
      {result.lines.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('toolbox.converter.empty')} />
      ) : (
        <pre className="proxy-lines mono" data-testid="converter-output">
          {result.lines.join('\n')}
        </pre>
      )}
    </Card>
  );
}
