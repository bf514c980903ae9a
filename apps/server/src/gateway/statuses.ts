import type { UpstreamFailure } from '../shared/dial-failures';
import type { Refusal } from './ports';
import type { BadParam } from './username-params';

export type { UpstreamFailure } from '../shared/dial-failures';
export { failureOfErrno } from '../shared/dial-failures';

/**
 * Every answer the gateway gives a proxy client that is not the tunnel itself, defined once (as
 * proxy-chain does with its `statuses.ts`). The table in docs/gateway.md is this table.
 */

/** Why a dial gave no socket: the upstream or target failed, or (direct egress) the destination is not allowed. */
export type DialFailure = UpstreamFailure | 'DESTINATION_FORBIDDEN';

/**
 * ACCOUNT_SWITCH: a kept-alive HTTP connection tried to change account while a request was still in
 * flight. TOO_MANY_FAILURES: the source address failed to log in too often and is locked out a while.
 * TOO_MANY_CONNECTIONS: the account holds its limit of concurrent connections on this gateway.
 */
export type GatewayReason = Refusal | 'TOO_MANY_FAILURES' | 'ACCOUNT_SWITCH' | 'TOO_MANY_CONNECTIONS' | 'BAD_TARGET' | DialFailure | 'INTERNAL';

/** SOCKS5 reply field REP, RFC 1928 §6. */
export const SOCKS_REPLY = {
  SUCCEEDED: 0x00,
  GENERAL_FAILURE: 0x01,
  NOT_ALLOWED: 0x02,
  NETWORK_UNREACHABLE: 0x03,
  HOST_UNREACHABLE: 0x04,
  CONNECTION_REFUSED: 0x05,
  COMMAND_NOT_SUPPORTED: 0x07,
  ADDRESS_TYPE_NOT_SUPPORTED: 0x08,
} as const;

/** RFC 1929 §2: any non-zero STATUS is a failure, after which the server closes the connection. */
export const SOCKS_AUTH_FAILURE = 0x01;

interface Status {
  /** HTTP status for the HTTP listener (CONNECT and plain requests). */
  http: number;
  /** RFC 1928 REP code; null = refused earlier, in the RFC 1929 sub-negotiation. */
  socks: number | null;
  message: string;
}

export const STATUSES: Readonly<Record<GatewayReason, Status>> = {
  BAD_CREDENTIALS: { http: 407, socks: null, message: 'Unknown proxy account or wrong password.' },
  // 407 like any refused login, so clients treat it as one; the reason header tells scripts to wait.
  TOO_MANY_FAILURES: { http: 407, socks: null, message: 'Too many failed logins from this address; try again later.' },
  BAD_PARAMS: {
    http: 400,
    socks: SOCKS_REPLY.NOT_ALLOWED,
    message: 'Invalid username parameters; expected ACCOUNT[-country-CC][-state-S][-city-C][-session-ID][-life-MIN].',
  },
  ACCOUNT_DISABLED: { http: 403, socks: SOCKS_REPLY.NOT_ALLOWED, message: 'This proxy account is disabled.' },
  NO_TRAFFIC: { http: 402, socks: SOCKS_REPLY.NOT_ALLOWED, message: 'No traffic left on this account; buy a traffic package to continue.' },
  ACCOUNT_CAP: { http: 403, socks: SOCKS_REPLY.NOT_ALLOWED, message: 'This proxy account has reached its traffic limit.' },
  // 402 like NO_TRAFFIC: paying (a renewal) is what brings the IP back, unchanged.
  STATIC_EXPIRED: { http: 402, socks: SOCKS_REPLY.NOT_ALLOWED, message: 'This static IP has expired; renew it to continue.' },
  STATIC_RELEASED: { http: 403, socks: SOCKS_REPLY.NOT_ALLOWED, message: 'This static IP has been released and no longer carries traffic.' },
  TOO_MANY_CONNECTIONS: {
    http: 429,
    socks: SOCKS_REPLY.NOT_ALLOWED,
    message: 'This proxy account holds its limit of concurrent connections; close one and retry.',
  },
  NO_SUPPLY: { http: 502, socks: SOCKS_REPLY.NETWORK_UNREACHABLE, message: 'No exit is available for the requested region.' },
  ACCOUNT_SWITCH: {
    http: 400,
    socks: SOCKS_REPLY.NOT_ALLOWED,
    message: 'A kept-alive connection cannot change proxy account while a request is in flight; open a new connection.',
  },
  BAD_TARGET: { http: 400, socks: SOCKS_REPLY.GENERAL_FAILURE, message: 'The target must be host:port with a port from 1 to 65535.' },
  DESTINATION_FORBIDDEN: {
    http: 403,
    socks: SOCKS_REPLY.NOT_ALLOWED,
    message: "The target is not a public address (loopback, private, link-local, reserved…) or is one of the gateway's own ports.",
  },
  UPSTREAM_UNREACHABLE: { http: 502, socks: SOCKS_REPLY.HOST_UNREACHABLE, message: 'The target or the upstream proxy could not be reached.' },
  UPSTREAM_REFUSED: { http: 502, socks: SOCKS_REPLY.CONNECTION_REFUSED, message: 'The target or the upstream proxy refused the connection.' },
  UPSTREAM_TIMEOUT: { http: 504, socks: SOCKS_REPLY.HOST_UNREACHABLE, message: 'The target or the upstream proxy did not answer in time.' },
  UPSTREAM_AUTH: { http: 502, socks: SOCKS_REPLY.GENERAL_FAILURE, message: "The upstream proxy refused the gateway's credentials." },
  UPSTREAM_REJECTED: { http: 502, socks: SOCKS_REPLY.NOT_ALLOWED, message: 'The upstream proxy refused to connect to the target.' },
  UPSTREAM_ERROR: { http: 502, socks: SOCKS_REPLY.GENERAL_FAILURE, message: 'The upstream connection failed.' },
  INTERNAL: { http: 500, socks: SOCKS_REPLY.GENERAL_FAILURE, message: 'Internal error in the gateway.' },
};

/** Header naming the reason on every refusal, so scripts need not parse the body. */
export const REASON_HEADER = 'X-Gateway-Reason';
/** Header naming the username parameter at fault on a BAD_PARAMS refusal. */
export const PARAM_HEADER = 'X-Gateway-Param';

/** Status, headers and `REASON: [what is wrong. ]sentence` body of a refusal over HTTP. */
export function refusalAnswer(reason: GatewayReason, param?: BadParam): { status: number; headers: Record<string, string>; body: string } {
  const s = STATUSES[reason];
  if (!param) return { status: s.http, headers: { [REASON_HEADER]: reason }, body: `${reason}: ${s.message}` };
  return {
    status: s.http,
    headers: { [REASON_HEADER]: reason, [PARAM_HEADER]: param.bad },
    body: `${reason}: ${param.bad === 'key' || param.bad === 'account' ? '' : `${param.bad} `}${param.why}. ${s.message}`,
  };
}

