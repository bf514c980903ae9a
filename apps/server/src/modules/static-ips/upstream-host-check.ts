import dns from 'node:dns';
import { isIP } from 'node:net';
import { isPublicUnicast } from '../../lib/public-address';
import type { LineProblem } from './inventory-lines';

type Lookup = (host: string) => Promise<{ address: string }[]>;

const lookupAll: Lookup = (host) => dns.promises.lookup(host, { all: true });

/**
 * Whether a static IP's upstream may be stored (docs/security.md#static-ip-upstreams). An upstream on
 * loopback, a private network or the metadata address would hand a static login the host's own
 * services: it must be a public address, by the same ranges as direct egress (lib/public-address.ts).
 * A name is resolved now and every answer must be public; one that does not resolve is refused too,
 * since it could not carry traffic anyway. (The gateway checks again at each dial, for a name that
 * points elsewhere later.) GATEWAY_ALLOW_PRIVATE_DESTINATIONS (tests only) lets everything through, as
 * it does for direct egress.
 */
export class UpstreamHostCheck {
  constructor(
    private readonly allowPrivate: boolean,
    private readonly lookup: Lookup = lookupAll,
  ) {}

  /** Each distinct host of `hosts` that may not be an upstream, with why; resolved side by side. */
  async problems(hosts: string[]): Promise<Map<string, LineProblem>> {
    const out = new Map<string, LineProblem>();
    if (this.allowPrivate) return out;
    await Promise.all(
      [...new Set(hosts)].map(async (host) => {
        const problem = await this.problem(host);
        if (problem) out.set(host, problem);
      }),
    );
    return out;
  }

  private async problem(host: string): Promise<LineProblem | null> {
    if (isIP(host) !== 0) return isPublicUnicast(host) ? null : 'privateHost';
    let answers: { address: string }[];
    try {
      answers = await this.lookup(host);
    } catch {
      return 'unresolvedHost';
    }
    if (answers.length === 0) return 'unresolvedHost';
    return answers.every((a) => isPublicUnicast(a.address)) ? null : 'privateHost';
  }
}
