import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** A value to copy from a table (order number, provider reference, proxy login or line): monospace, one click to copy. */
export function CopyableCode({ value }: { value: string }) {
  const { t } = useTranslation();
  return (
    <Typography.Text copyable={{ tooltips: [t('commerce.copy'), t('commerce.copied')] }} className="mono">
      {value}
    </Typography.Text>
  );
}
