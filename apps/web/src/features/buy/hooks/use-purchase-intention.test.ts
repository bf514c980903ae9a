import { renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { intentionFor, usePurchaseIntention } from './use-purchase-intention';

describe('intentionFor', () => {
  it('records an unpaid session with the package and, once chosen, the method', () => {
    expect(intentionFor({ goodsId: 3, paid: false, logged: false })).toEqual({ kind: 'dynamic', goodsId: 3 });
    expect(intentionFor({ goodsId: 3, payMethod: 'usdt-trc20', paid: false, logged: false })).toEqual({ kind: 'dynamic', goodsId: 3, payMethod: 'usdt-trc20' });
  });

  it('records nothing for a paid, an already logged or no session', () => {
    expect(intentionFor({ goodsId: 3, paid: true, logged: false })).toBeNull();
    expect(intentionFor({ goodsId: 3, paid: false, logged: true })).toBeNull();
    expect(intentionFor(null)).toBeNull();
  });
});

describe('usePurchaseIntention', () => {
  it('logs an abandoned checkout once, when the dialog closes', () => {
    const send = vi.fn(async () => undefined);
    const { result } = renderHook(() => usePurchaseIntention(send));
    result.current.open(5);
    result.current.choose('card');
    result.current.close();
    result.current.close();
    expect(send).toHaveBeenCalledTimes(1);
    expect(send).toHaveBeenCalledWith({ kind: 'dynamic', goodsId: 5, payMethod: 'card' });
  });

  it('does not log a checkout that ended paid', () => {
    const send = vi.fn(async () => undefined);
    const { result } = renderHook(() => usePurchaseIntention(send));
    result.current.open(5);
    result.current.paid();
    result.current.close();
    expect(send).not.toHaveBeenCalled();
  });

  it('logs when the page is left or the tab closes with the checkout open, and not again', () => {
    const send = vi.fn(async () => undefined);
    const { result, unmount } = renderHook(() => usePurchaseIntention(send));
    result.current.open(9);
    window.dispatchEvent(new Event('pagehide'));
    expect(send).toHaveBeenCalledWith({ kind: 'dynamic', goodsId: 9 });
    unmount();
    expect(send).toHaveBeenCalledTimes(1);

    const second = vi.fn(async () => undefined);
    const other = renderHook(() => usePurchaseIntention(second));
    other.result.current.open(2);
    other.unmount();
    expect(second).toHaveBeenCalledWith({ kind: 'dynamic', goodsId: 2 });
  });

  it('logs nothing when no checkout was opened', () => {
    const send = vi.fn(async () => undefined);
    const { unmount } = renderHook(() => usePurchaseIntention(send));
    window.dispatchEvent(new Event('pagehide'));
    unmount();
    expect(send).not.toHaveBeenCalled();
  });
});
