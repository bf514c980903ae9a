import type { PayMethod } from '@resi/contract';
import { useEffect, useMemo, useRef } from 'react';
import { type IntentionBody, logPurchaseIntention } from '../api/log-purchase-intention';

/** One opening of the checkout: what was picked, and whether it ended in a payment or was already logged. */
export interface CheckoutSession {
  /** Static IPs have no package id: only the kind is recorded. */
  kind?: 'dynamic' | 'static';
  goodsId?: number;
  payMethod?: PayMethod;
  paid: boolean;
  logged: boolean;
}

/** The intention to record for a session that is being left, or null (paid, already logged, none open). */
export function intentionFor(session: CheckoutSession | null): IntentionBody | null {
  if (!session || session.paid || session.logged) return null;
  const what = session.kind === 'static' ? { kind: 'static' as const } : { kind: 'dynamic' as const, goodsId: session.goodsId };
  return session.payMethod ? { ...what, payMethod: session.payMethod } : what;
}

/**
 * Records a customer who opened the checkout and left without paying: on closing the dialog unpaid, on
 * leaving the page (route change) with it open, and on closing the tab (pagehide). Once per opening.
 */
export function usePurchaseIntention(send: (body: IntentionBody) => Promise<void> = logPurchaseIntention) {
  const session = useRef<CheckoutSession | null>(null);

  const controls = useMemo(() => {
    const flush = () => {
      const body = intentionFor(session.current);
      if (!body || !session.current) return;
      session.current.logged = true;
      send(body).catch(() => undefined);
    };
    return {
      /** The checkout opened for a package. */
      open(goodsId: number) {
        session.current = { goodsId, paid: false, logged: false };
      },
      /** The checkout opened for static IPs. */
      openStatic() {
        session.current = { kind: 'static', paid: false, logged: false };
      },
      choose(payMethod: PayMethod) {
        if (session.current) session.current.payMethod = payMethod;
      },
      paid() {
        if (session.current) session.current.paid = true;
      },
      /** The checkout closed: logged unless it was paid. */
      close() {
        flush();
        session.current = null;
      },
      flush,
    };
  }, [send]);

  useEffect(() => {
    const onPageHide = () => controls.flush();
    window.addEventListener('pagehide', onPageHide);
    return () => {
      window.removeEventListener('pagehide', onPageHide);
      controls.flush();
    };
  }, [controls]);

  return controls;
}
