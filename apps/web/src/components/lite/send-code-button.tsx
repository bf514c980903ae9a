import { useSendCode } from '@/hooks/use-send-code';
import { LiteButton } from './lite-button';

/** The send-code button of components/send-code-button.tsx, for the pages drawn without antd. */
export function LiteSendCodeButton({ onSend }: { onSend: () => Promise<number | null> }) {
  const { label, sending, waiting, click } = useSendCode(onSend);
  return (
    <LiteButton size="large" onClick={click} loading={sending} disabled={waiting} className="send-code-button" data-testid="send-code">
      {label}
    </LiteButton>
  );
}
