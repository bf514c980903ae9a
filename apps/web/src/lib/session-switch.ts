import type { LinkSession } from './navigation';

/*
 * A link's `?token=` waits here until the user answers (issues 9 and 22: neither a signed-in tab nor a fresh
 * one may silently become the account of whoever sent the link). Memory only: the token has already left
 * the address bar, and a reload while the question is open drops it.
 */
let pending: LinkSession | null = null;
const listeners = new Set<() => void>();

function set(offer: LinkSession | null): void {
  pending = offer;
  for (const listener of listeners) listener();
}

export const pendingSessionSwitch = {
  /** The link waiting for an answer, or null. */
  get: (): LinkSession | null => pending,
  /** A newer link replaces an unanswered one: the question is about the last link opened. */
  offer: (offer: LinkSession): void => set(offer),
  /** Hands the waiting link over once (confirm) and forgets it. */
  take: (): LinkSession | null => {
    const offer = pending;
    set(null);
    return offer;
  },
  /** Forgets the waiting link (cancel): the tab stays as it was, signed in or not. */
  dismiss: (): void => set(null),
  subscribe: (listener: () => void): (() => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
