import { Button } from 'antd';
import { useSendCode } from '@/hooks/use-send-code';

export interface SendCodeButtonProps {
  /** Sends the code; resolves to the seconds before another may be sent, or null when nothing was sent. */
  onSend: () => Promise<number | null>;
  disabled?: boolean;
}

/** "Send code" → "Sending…" while busy → "Resend in 60 s" countdown. */
export function SendCodeButton({ onSend, disabled }: SendCodeButtonProps) {
  const { label, sending, waiting, click } = useSendCode(onSend);
  return (
    <Button size="large" onClick={click} loading={sending} disabled={disabled || waiting} className="send-code-button" data-testid="send-code">
      {label}
    </Button>
  );
}
