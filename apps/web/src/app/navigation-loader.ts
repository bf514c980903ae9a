import type { QueryClient } from '@tanstack/react-query';
import { replace, type LoaderFunction } from 'react-router';
import { currentUserKey, reloadCurrentUser, SessionLostError } from '@/api/get-current-user';
import { recordChannelVisit } from '@/api/record-channel-visit';
import { ApiError } from '@/lib/api-client';
import { ROUTER_BASENAME } from '@/lib/constants';
import { setLanguage } from '@/lib/i18n';
import { loginRedirect, resolveNavigation, stripBasename, type NavigationDecision } from '@/lib/navigation';
import { isUnreachable, serverReachability } from '@/lib/server-reachability';
import { pendingSessionSwitch } from '@/lib/session-switch';
import { storage } from '@/lib/storage';

/*
 * The navigation rules (docs/console.md#navigation-rules), applied on every navigation: the root route's
 * loader runs for each one (shouldRevalidate always true), decides with the pure resolveNavigation() and
 * applies the result.
 */

export interface NavigationDeps {
  queryClient: QueryClient;
  /** Called when a background user reload finds the session gone (navigate to login). */
  onSessionLost: () => void;
  now?: () => number;
}

/**
 * Stores what the URL carried: language (and switches to it), channel (counting a new landing). A link's token waits for
 * the user's answer (SessionSwitchDialog) while the tab goes on as it was: with its session, or on the login page.
 */
export async function applyNavigationDecision(decision: NavigationDecision): Promise<void> {
  if (decision.lang) await setLanguage(decision.lang);
  if (decision.channel) {
    // Once per browser session: the remembered channel is the landing already counted (a reload, or the
    // login redirect that keeps the query, is not a second visit). No key of our own: the spec fixes them.
    const known = storage.getChannel();
    if (known?.key !== decision.channel.key || known.value !== decision.channel.value) recordChannelVisit(decision.channel, decision.inviteCode);
    storage.setChannel(decision.channel);
  }
  if (decision.offerToken) pendingSessionSwitch.offer(decision.offerToken);
}

/**
 * Whether a failed current-user check says the session is bad: a 401, or an answer without email (spec §4).
 * No answer, a timeout or a 5xx says nothing about it (DESIGN §16): a network blip must not sign anyone out.
 */
export function sessionRefused(error: unknown): boolean {
  return error instanceof SessionLostError || (error instanceof ApiError && error.status === 401);
}

export function createNavigationLoader(deps: NavigationDeps): LoaderFunction {
  const now = deps.now ?? Date.now;
  const sessionLost = () => {
    storage.clearSession();
    deps.queryClient.removeQueries({ queryKey: currentUserKey });
  };
  return async ({ request }) => {
    const url = new URL(request.url);
    const decision = resolveNavigation({
      pathname: stripBasename(url.pathname, ROUTER_BASENAME),
      search: url.search,
      storedToken: storage.getToken(),
      now: now(),
    });
    await applyNavigationDecision(decision);
    if (decision.redirectTo) throw replace(decision.redirectTo);

    if (decision.reloadUser) {
      const known = storage.getUserInfo() !== null;
      const reload = reloadCurrentUser(deps.queryClient).then(
        (user) => {
          serverReachability.markReachable();
          return user;
        },
        (error: unknown) => {
          if (!sessionRefused(error) && isUnreachable(error) && !(error instanceof ApiError && error.code === 'ABORTED')) serverReachability.markUnreachable();
          throw error;
        },
      );
      if (!known) {
        // Nothing to show the layout with yet (fresh token): wait for the user. Without an answer the route's
        // error view says the server cannot be reached and offers a retry; the token stays.
        try {
          await reload;
        } catch (error) {
          if (!sessionRefused(error)) throw error;
          sessionLost();
          throw replace(loginRedirect(now()));
        }
      } else {
        reload.catch((error: unknown) => {
          // Cancelled because the page is being left, or no answer: not a verdict on the session.
          if (!sessionRefused(error)) return;
          sessionLost();
          deps.onSessionLost();
        });
      }
    }
    return null;
  };
}
