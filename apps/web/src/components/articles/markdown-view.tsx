import { CheckOutlined, CopyOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { type ComponentProps, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Markdown, { type Components } from 'react-markdown';
import { Link } from 'react-router';
import remarkGfm from 'remark-gfm';
import { copyText } from '@/lib/clipboard';

/**
 * Renders an article's Markdown. Raw HTML in the source stays text (react-markdown's default), and its
 * URL filter drops `javascript:` links. Links within the console (`/…`, `?…`) navigate in the app;
 * links to other sites open in a new tab without giving that tab a handle on this one.
 */
export function MarkdownView({ source }: { source: string }) {
  return (
    <div className="markdown-body">
      <Markdown remarkPlugins={[remarkGfm]} components={components}>
        {source}
      </Markdown>
    </div>
  );
}

function ArticleLink({ href = '', children, node: _node, ...rest }: ComponentProps<'a'> & { node?: unknown }) {
  if (href.startsWith('/') || href.startsWith('?')) return <Link to={href}>{children}</Link>;
  if (/^https?:\/\//i.test(href)) {
    return (
      <a {...rest} href={href} target="_blank" rel="noopener noreferrer">
        {children}
      </a>
    );
  }
  return (
    <a {...rest} href={href}>
      {children}
    </a>
  );
}

/** A code block with a copy button: guides are mostly commands to paste. */
function CodeBlock({ children, node: _node, ...rest }: ComponentProps<'pre'> & { node?: unknown }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLPreElement>(null);
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    if (await copyText(ref.current?.textContent?.replace(/\n$/, '') ?? '')) {
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    }
  };
  return (
    <div className="markdown-body__code">
      <pre {...rest} ref={ref}>
        {children}
      </pre>
      <Tooltip title={copied ? t('articles.copied') : t('articles.copy')}>
        <Button
          size="small"
          type="text"
          className="markdown-body__copy"
          icon={copied ? <CheckOutlined /> : <CopyOutlined />}
          aria-label={t('articles.copy')}
          onClick={() => void copy()}
        />
      </Tooltip>
    </div>
  );
}

const components: Components = { a: ArticleLink, pre: CodeBlock };
