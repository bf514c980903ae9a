import dns from 'node:dns';
import net from 'node:net';
import { isPublicUnicast } from '../lib/public-address';

/*
 * Which destinations the gateway may dial itself (direct egress). Without this, a proxy customer could
 * reach the gateway host's own services (Redis, PostgreSQL, the console's API on 127.0.0.1), its private
 * network and the cloud metadata service (169.254.169.254). Through an upstream proxy the destination is
 * the upstream's to resolve and judge, so only direct dials are guarded, and the dial to a guarded
 * upstream itself (a static IP's, exit-dialer.ts). Which addresses are public: lib/public-address.ts.
 */

/** errno-style code of a refused lookup, so a dial's 'error' can be told from a network failure. */
export const DESTINATION_FORBIDDEN_CODE = 'ERR_GATEWAY_DESTINATION_FORBIDDEN';

export interface DestinationGuardOptions {
  /**
   * Let direct dials reach private and other non-public addresses: tests and CI, whose origins listen on
   * 127.0.0.1 (GATEWAY_ALLOW_PRIVATE_DESTINATIONS, refused in production). The own ports stay refused.
   */
  allowPrivate: boolean;
  /** The gateway's listening ports; read at each dial, since they are bound only at start. */
  ownPorts: () => readonly number[];
}

/**
 * The check of every direct dial. A name is resolved once, every answer is checked, and the socket
 * connects to exactly the answers that were checked (`lookup`, net.connect's hook), so DNS rebinding has
 * no second resolution to slip a private address into. net.connect skips `lookup` for an IP literal:
 * `refuses` checks literals (and the port) before dialing.
 */
export class DestinationGuard {
  /** net.connect's `lookup` for direct dials. */
  readonly lookup: net.LookupFunction;

  constructor(private readonly opts: DestinationGuardOptions) {
    this.lookup = this.lookupWith();
  }

  /**
   * Whether a direct dial to `host:port` is refused before any lookup: one of the gateway's own ports on
   * any address (the gateway cannot know every address that reaches it: NAT, a public IP, a balancer;
   * a proxy loop is never wanted), or an IP literal that is not allowed.
   */
  refuses(host: string, port: number): boolean {
    if (this.opts.ownPorts().includes(port)) return true;
    return net.isIP(host) !== 0 && !this.allows(host);
  }

  allows(address: string): boolean {
    return this.opts.allowPrivate || isPublicUnicast(address);
  }

  /** A `lookup` that also tells `onRefused` (the plain HTTP path names the reason on its response). */
  lookupWith(onRefused?: () => void): net.LookupFunction {
    if (this.opts.allowPrivate) return dns.lookup as net.LookupFunction;
    return (hostname, options, callback) => {
      dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
        if (err) return callback(err, '');
        if (addresses.length === 0) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '');
        // Every answer, not just the first: happy eyeballs (autoSelectFamily) may try any of them.
        const refused = addresses.find((a) => !isPublicUnicast(a.address));
        if (refused) {
          onRefused?.();
          return callback(Object.assign(new Error(`${hostname} resolves to ${refused.address}, which is not a public address`), { code: DESTINATION_FORBIDDEN_CODE }), '');
        }
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      });
    };
  }
}
