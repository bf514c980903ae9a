import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, errorFromBody } from '@/lib/api-client';
import '@/lib/i18n';
import { SendCodeButton } from './send-code-button';

afterEach(() => vi.useRealTimers());

describe('send-code button', () => {
  it('counts down the wait a 429 names, then may be pressed again', async () => {
    vi.useFakeTimers();
    const onSend = vi.fn().mockRejectedValue(errorFromBody(429, { code: 'MAIL_CODE_TOO_SOON', message: 'Wait 3 s.' }, '3'));
    render(<SendCodeButton onSend={onSend} />);
    const button = screen.getByTestId('send-code');
    await act(async () => {
      fireEvent.click(button);
    });
    expect((button as HTMLButtonElement).disabled).toBe(true);
    expect(button.textContent).toContain('3');
    // One second at a time: each tick renders and sets the next.
    for (let i = 0; i < 3; i++) {
      await act(async () => {
        vi.advanceTimersByTime(1000);
      });
    }
    expect((button as HTMLButtonElement).disabled).toBe(false);
    expect(onSend).toHaveBeenCalledTimes(1);
  });

  it('stays ready after other errors', async () => {
    const onSend = vi.fn().mockRejectedValue(new ApiError('Wrong captcha', 400, 'CAPTCHA_INVALID'));
    render(<SendCodeButton onSend={onSend} />);
    const button = screen.getByTestId('send-code');
    await act(async () => {
      fireEvent.click(button);
    });
    expect((button as HTMLButtonElement).disabled).toBe(false);
  });
});
