import { ApiError } from './api-client';

/*
 * Whether the console could reach its server on the last current-user check (docs/console.md#session).
 * A failed check that is not a verdict on the session — no answer, a timeout, a 5xx — keeps the session
 * and sets this, and the layout shows "cannot reach the server" with a retry until a check answers again
 * (DESIGN §16). A module-level store, like the pending session switch: the navigation loader writes it
 * outside React.
 */
let unreachable = false;
/** Router error views on screen that already say it (app/pages/route-error.tsx): the layout's notice would repeat them. */
let errorViews = 0;
const listeners = new Set<() => void>();

function notify(): void {
  for (const listener of listeners) listener();
}

export const serverReachability = {
  isUnreachable: (): boolean => unreachable,
  markUnreachable: (): void => {
    if (unreachable) return;
    unreachable = true;
    notify();
  },
  markReachable: (): void => {
    if (!unreachable) return;
    unreachable = false;
    notify();
  },
  /** Whether the layout should say it: unreachable, and no error view on screen saying it already. */
  noticeWanted: (): boolean => unreachable && errorViews === 0,
  /** An error view saying it is shown; call the returned function when it goes. */
  coverNotice: (): (() => void) => {
    errorViews++;
    notify();
    return () => {
      errorViews--;
      notify();
    };
  },
  subscribe: (listener: () => void): (() => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

/**
 * Whether an error means the server could not be reached or could not answer, rather than that it said no:
 * no response (network, timeout), a 5xx, or a code chunk the browser could not fetch (the message differs per
 * browser; each names a dynamically imported module or a module script).
 */
export function isUnreachable(error: unknown): boolean {
  if (error instanceof ApiError) return error.status === 0 || error.status >= 500;
  return error instanceof TypeError && /dynamically imported module|module script|importing a module/i.test(error.message);
}
