/**
 * How a failed dial through an upstream is named (docs/gateway.md#refusals-and-failures): by the gateway's
 * answers and breakers, and by the active probe, so an admin reads one reason from either.
 */

/** Upstream or target failures after a connection was admitted. */
export type UpstreamFailure =
  | 'UPSTREAM_UNREACHABLE'
  | 'UPSTREAM_REFUSED'
  | 'UPSTREAM_TIMEOUT'
  | 'UPSTREAM_AUTH'
  | 'UPSTREAM_REJECTED'
  | 'UPSTREAM_ERROR';

/** Node's errno codes of a failed dial. */
export function failureOfErrno(code: string | undefined): UpstreamFailure {
  switch (code) {
    case 'ECONNREFUSED':
      return 'UPSTREAM_REFUSED';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NODATA':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'EADDRNOTAVAIL':
      return 'UPSTREAM_UNREACHABLE';
    case 'ETIMEDOUT':
      return 'UPSTREAM_TIMEOUT';
    default:
      return 'UPSTREAM_ERROR';
  }
}
