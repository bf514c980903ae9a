/*
 * A `?token=` of another session, opened in a tab that already holds one, waits here until the user
 * answers (issue 9: an admin's tab must not silently become a customer's). Memory only: the token has
 * already left the address bar, and a reload while the question is open keeps the current session.
 */
let pending: string | null = null;
const listeners = new Set<() => void>();

function set(token: string | null): void {
  pending = token;
  for (const listener of listeners) listener();
}

export const pendingSessionSwitch = {
  /** The token waiting for an answer, or null. */
  get: (): string | null => pending,
  /** A newer link replaces an unanswered one: the question is about the last link opened. */
  offer: (token: string): void => set(token),
  /** Hands the waiting token over once (confirm) and forgets it. */
  take: (): string | null => {
    const token = pending;
    set(null);
    return token;
  },
  /** Forgets the waiting token (cancel): the current session stays. */
  dismiss: (): void => set(null),
  subscribe: (listener: () => void): (() => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
