import dns from 'node:dns';
import net from 'node:net';
import { isPublicUnicast } from '../../lib/public-address';

/*
 * Where webhooks may be sent (docs/api.md#webhooks). A customer names the URL, so without a guard the
 * sender would reach the API host's own services, its private network and the cloud metadata service
 * (169.254.169.254, fd00:ec2::254) for them, as the gateway's direct egress would (gateway/destination-guard.ts;
 * the same ranges: lib/public-address.ts). Checked when an endpoint is saved, for a clear answer, and again
 * at every send: a name is resolved once, every answer checked, and the socket connects to exactly the
 * answers checked, so a name that later points inside (DNS rebinding) gains nothing.
 */

export interface DestinationRules {
  /** Only https:// URLs (production, not the demo). */
  requireHttps: boolean;
  /** Only hosts whose every address is public unicast (production, the demo included). */
  publicOnly: boolean;
}

/** Production refuses private addresses even in the demo: a public demo must not become a way into its host. Tests and development send anywhere. */
export const destinationRules = (nodeEnv: string, demo: boolean): DestinationRules => ({
  requireHttps: nodeEnv === 'production' && !demo,
  publicOnly: nodeEnv === 'production',
});

/** Why a URL is refused, as a `validation.*` key; null when it may be saved. */
export type DestinationProblem = 'webhookUrlHttps' | 'webhookUrlPrivate' | 'webhookUrlUnresolved';

/** errno-style code of a refused lookup, so a send's error names the guard rather than the network. */
export const DESTINATION_REFUSED = 'ERR_WEBHOOK_DESTINATION_REFUSED';

type LookupAll = (host: string) => Promise<{ address: string }[]>;
const lookupAll: LookupAll = (host) => dns.promises.lookup(host, { all: true });

/** A URL's host without IPv6 brackets. */
const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

export class WebhookDestinations {
  /** net.connect's `lookup` for sends (publicOnly): every answer must be public, and the socket uses only those. */
  readonly lookup: net.LookupFunction | undefined;

  constructor(
    readonly rules: DestinationRules,
    private readonly resolve: LookupAll = lookupAll,
  ) {
    this.lookup = rules.publicOnly ? publicLookup : undefined;
  }

  /** Whether `text` (a URL the schema accepted) may be saved now. */
  async problem(text: string): Promise<DestinationProblem | null> {
    const url = new URL(text);
    if (this.rules.requireHttps && url.protocol !== 'https:') return 'webhookUrlHttps';
    if (!this.rules.publicOnly) return null;
    const host = hostOf(url);
    if (net.isIP(host) !== 0) return isPublicUnicast(host) ? null : 'webhookUrlPrivate';
    let answers: { address: string }[];
    try {
      answers = await this.resolve(host);
    } catch {
      return 'webhookUrlUnresolved';
    }
    if (answers.length === 0) return 'webhookUrlUnresolved';
    return answers.every((a) => isPublicUnicast(a.address)) ? null : 'webhookUrlPrivate';
  }

  /** Why a send to `url` is refused before any lookup (scheme, or an IP literal), or null. */
  refusesBeforeLookup(url: URL): string | null {
    if (this.rules.requireHttps && url.protocol !== 'https:') return 'refused: not an https:// URL';
    const host = hostOf(url);
    if (this.rules.publicOnly && net.isIP(host) !== 0 && !isPublicUnicast(host)) return `refused: ${host} is not a public address`;
    return null;
  }
}

const publicLookup: net.LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '');
    const refused = addresses.find((a) => !isPublicUnicast(a.address));
    if (addresses.length === 0 || refused) {
      const why = refused ? `refused: ${hostname} resolves to ${refused.address}, which is not a public address` : `no address for ${hostname}`;
      return callback(Object.assign(new Error(why), { code: refused ? DESTINATION_REFUSED : 'ENOTFOUND' }), '');
    }
    // Every answer, not just the first: happy eyeballs (autoSelectFamily) may try any of them.
    if (options.all) callback(null, addresses);
    else callback(null, addresses[0]!.address, addresses[0]!.family);
  });
};
