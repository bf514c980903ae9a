import http from 'node:http';

/** Agents towards upstream proxies kept at most; beyond it idle ones are closed. */
const MAX_POOLED = 256;

/**
 * Keep-alive agents for plain requests, one per upstream URL (its credentials included: a kept
 * connection must not carry another account's requests to a provider that binds the exit to it).
 * Bounded without ever cutting a request in flight: past the bound only an agent with no request on
 * it is closed, and when every one is busy the request goes without keep-alive. A URL that names a
 * session (a provider template's) is not pooled: rotating requests would never reuse it.
 */
export class UpstreamAgents {
  private readonly pooled = new Map<string, http.Agent>();
  /** Direct egress: connections to origins, kept alive. */
  readonly direct = new http.Agent({ keepAlive: true });
  /** One connection per request, closed after it. */
  private readonly unpooled = new http.Agent({ keepAlive: false });

  constructor(private readonly max = MAX_POOLED) {}

  forUrl(url: string, pool: boolean): http.Agent {
    if (!pool) return this.unpooled;
    let agent = this.pooled.get(url);
    if (agent) {
      // Most recently used last, so the least recently used (most likely idle) are looked at first.
      this.pooled.delete(url);
      this.pooled.set(url, agent);
      return agent;
    }
    if (this.pooled.size >= this.max && !this.evictIdle()) return this.unpooled;
    agent = new http.Agent({ keepAlive: true });
    this.pooled.set(url, agent);
    return agent;
  }

  /** Agents currently pooled (tests). */
  get size(): number {
    return this.pooled.size;
  }

  destroy(): void {
    this.direct.destroy();
    this.unpooled.destroy();
    for (const agent of this.pooled.values()) agent.destroy();
    this.pooled.clear();
  }

  /** Closes the least recently used agent that carries no request; false when all are busy. */
  private evictIdle(): boolean {
    for (const [url, agent] of this.pooled) {
      if (!isIdle(agent)) continue;
      // Only kept-alive connections are open on an idle agent: destroy() closes just those.
      agent.destroy();
      this.pooled.delete(url);
      return true;
    }
    return false;
  }
}

function isIdle(agent: http.Agent): boolean {
  return Object.keys(agent.sockets).length === 0 && Object.keys(agent.requests).length === 0;
}
