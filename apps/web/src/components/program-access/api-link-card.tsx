import { KeyOutlined, PlayCircleOutlined } from '@ant-design/icons';
import { EXTRACT_FORMATS, EXTRACT_MAX_NUM, EXTRACT_SEPARATORS, PROXY_PROTOCOLS, type ExtractFormat, type ProxyProtocol } from '@resi/contract';
import { Alert, Button, Card, Col, Form, InputNumber, Popconfirm, Row, Select, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '@/lib/notify';
import { type KeyOwner, useRotateKey } from '@/api/extract-key';
import { type Separator, extractUrl } from '@/lib/extract-url';

interface Props {
  owner: KeyOwner;
  /** The current key's prefix (null: none yet). The key itself is known only right after it is made. */
  prefix: string | null;
  /** Location and sticky lifetime, from the page's line settings; the static IPs' link has neither. */
  region?: string[];
  life?: number | null;
}

type Answer = { ok: boolean; text: string } | null;

/**
 * The API link builder (提取API, docs/gateway.md#extraction): the key (shown once, when made), the link's
 * parameters, the URL to copy, and "Try it" with its answer right here. The link is called with plain
 * fetch, not the console's API client: its refusals (a 401 for a replaced key) are about the key, never
 * this tab's session.
 */
export function ApiLinkCard({ owner, prefix, region = [], life = null }: Props) {
  const { t, i18n } = useTranslation();
  const rotate = useRotateKey(owner);
  const [key, setKey] = useState<string | null>(null);
  const [num, setNum] = useState<number | null>(10);
  const [protocol, setProtocol] = useState<ProxyProtocol>('http');
  const [format, setFormat] = useState<ExtractFormat>('txt');
  const [sep, setSep] = useState<Separator>('crlf');
  const [answer, setAnswer] = useState<Answer>(null);
  const [trying, setTrying] = useState(false);

  const url = key && num !== null ? extractUrl(window.location.origin, key, { num, protocol, format, sep, region, life }) : null;

  const makeKey = () =>
    rotate.mutateAsync().then(
      (res) => {
        setKey(res.data.key);
        setAnswer(null);
        notify.success(res.message || t('proxy.apiLink.keyMade'));
      },
      () => undefined,
    );

  const tryIt = async () => {
    if (!url) return;
    setTrying(true);
    try {
      const res = await fetch(url, { headers: { 'api-lang': i18n.language } });
      const body = await res.text();
      if (res.ok) setAnswer({ ok: true, text: format === 'json' ? JSON.stringify(JSON.parse(body), null, 2) : body.replace(/\r\n?/g, '\n').replace(/\t/g, '  ') });
      else setAnswer({ ok: false, text: (JSON.parse(body) as { message?: string }).message ?? `HTTP ${res.status}` });
    } catch {
      setAnswer({ ok: false, text: t('proxy.apiLink.unreachable') });
    } finally {
      setTrying(false);
    }
  };

  const keyButton = (
    <Button icon={<KeyOutlined />} loading={rotate.isPending} onClick={prefix ? undefined : () => void makeKey()} data-testid="api-link-key">
      {prefix ? t('proxy.apiLink.replaceKey') : t('proxy.apiLink.makeKey')}
    </Button>
  );

  return (
    <Card variant="borderless" className="surface-card" title={t('proxy.apiLink.title')} data-testid="api-link">
      <Typography.Paragraph type="secondary">{t(owner === 'static' ? 'proxy.apiLink.hintStatic' : 'proxy.apiLink.hint')}</Typography.Paragraph>
      <div className="api-link-key">
        <Typography.Text>
          {t('proxy.apiLink.key')}: <Typography.Text className="mono" data-testid="api-link-prefix">{prefix ? `${prefix}…` : t('proxy.apiLink.noKey')}</Typography.Text>
        </Typography.Text>
        {prefix ? (
          <Popconfirm title={t('proxy.apiLink.replaceConfirm')} okText={t('proxy.apiLink.replaceKey')} cancelText={t('proxy.apiLink.keepKey')} onConfirm={() => makeKey()}>
            {keyButton}
          </Popconfirm>
        ) : (
          keyButton
        )}
      </div>
      <Form layout="vertical" requiredMark={false} className="api-link-form">
        <Row gutter={12}>
          <Col xs={12} md={6}>
            <Form.Item label={t('proxy.apiLink.num')} htmlFor="api-link-num" validateStatus={num === null ? 'error' : undefined}>
              <InputNumber id="api-link-num" min={1} max={EXTRACT_MAX_NUM} precision={0} value={num} onChange={setNum} className="full-width" data-testid="api-link-num" />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item label={t('proxy.settings.protocol')} htmlFor="api-link-protocol">
              <Select<ProxyProtocol> id="api-link-protocol" value={protocol} onChange={setProtocol} options={PROXY_PROTOCOLS.map((p) => ({ value: p, label: t(`proxy.protocol.${p}`) }))} data-testid="api-link-protocol" />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item label={t('proxy.apiLink.format')} htmlFor="api-link-format">
              <Select<ExtractFormat> id="api-link-format" value={format} onChange={setFormat} options={EXTRACT_FORMATS.map((f) => ({ value: f, label: f.toUpperCase() }))} data-testid="api-link-format" />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item label={t('proxy.apiLink.separator')} htmlFor="api-link-sep">
              <Select<Separator>
                id="api-link-sep"
                value={sep}
                onChange={setSep}
                options={(Object.keys(EXTRACT_SEPARATORS) as Separator[]).map((s) => ({ value: s, label: t(`proxy.apiLink.sep.${s}`) }))}
                data-testid="api-link-sep"
              />
            </Form.Item>
          </Col>
        </Row>
      </Form>
      {owner !== 'static' ? <Typography.Paragraph type="secondary">{t('proxy.apiLink.followsSettings')}</Typography.Paragraph> : null}
      {url ? (
        <>
          <Alert type="warning" showIcon message={t('proxy.apiLink.shownOnce')} className="api-link-alert" />
          <Typography.Paragraph copyable={{ text: url, tooltips: [t('proxy.copy'), t('proxy.copied')] }} className="mono api-link-url" data-testid="api-link-url">
            {url}
          </Typography.Paragraph>
          <Button type="primary" icon={<PlayCircleOutlined />} loading={trying} onClick={() => void tryIt()} data-testid="api-link-try">
            {t('proxy.apiLink.try')}
          </Button>
          {answer ? (
            answer.ok ? (
              <pre className="api-link-answer mono" data-testid="api-link-answer">
                {answer.text}
              </pre>
            ) : (
              <Alert type="error" showIcon message={answer.text} className="api-link-alert" data-testid="api-link-refused" />
            )
          ) : null}
        </>
      ) : (
        <Typography.Paragraph type="secondary" data-testid="api-link-no-url">
          {t(prefix ? 'proxy.apiLink.replaceToSee' : 'proxy.apiLink.makeToSee')}
        </Typography.Paragraph>
      )}
    </Card>
  );
}
