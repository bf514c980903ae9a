import http from 'node:http';
import type { LookupFunction } from 'node:net';
import { forwardedHeaders } from './hop-by-hop';
import type { GatewayRequest, GatewayResponse } from './plain-exchange';
import { failureOfErrno } from './statuses';

/** Where a plain request goes: the exit's agent, and the upstream proxy it is sent to in absolute form (or none). */
export interface PlainRoute {
  agent: http.Agent;
  /** An HTTP upstream proxy: host, port and its `Proxy-Authorization` (null without credentials). */
  proxy: { host: string; port: number; authorization: string | null } | null;
  /** Resolves (and checks) the origin's name on a new direct connection (destination-guard.ts). */
  lookup?: LookupFunction;
}

/**
 * Forwards one plain HTTP request (absolute-form, RFC 9112 §3.2.2) and pipes the answer back, over the
 * exit's kept-alive agent. Written here rather than left to proxy-chain's `forward`: its promise,
 * `stream.pipeline` (an AbortSignal and a DOMException per request), second URL parse and per-socket
 * byte counters were most of a kept-alive request's CPU (`node --cpu-prof`, docs/gateway.md#benchmark).
 *
 * Hop-by-hop fields go neither way (RFC 9110 §7.6.1). Metering needs nothing here: it reads the client
 * socket's counters. The byte budget sees each answer chunk through `GatewayResponse.write`, which says
 * "hold still" as a full buffer would, and each upload chunk through `GatewayRequest.push`.
 */
export function forwardPlain(req: GatewayRequest, res: GatewayResponse, target: URL, route: PlainRoute): void {
  const headers = forwardedHeaders(req.rawHeaders);
  const { proxy } = route;
  if (proxy?.authorization) headers.push('Proxy-Authorization', proxy.authorization);
  let up: http.ClientRequest;
  try {
    up = http.request({
      host: proxy ? proxy.host : target.hostname.startsWith('[') ? target.hostname.slice(1, -1) : target.hostname,
      port: proxy ? proxy.port : Number(target.port) || 80,
      method: req.method,
      // To a proxy the request keeps its absolute form; to the origin it is origin-form.
      path: proxy ? req.url : target.pathname + target.search,
      headers,
      setHost: false,
      agent: route.agent,
      lookup: route.lookup,
      // Origins send all kinds of heads; the client is answered with what Node will write (see `answer`).
      insecureHTTPParser: true,
    });
  } catch {
    // A header Node will not send (the client's head was parsed leniently elsewhere): refused as malformed.
    return res.fail('UPSTREAM_ERROR');
  }
  res.upstream = up;
  up.on('response', (answer: http.IncomingMessage) => onAnswer(res, answer, proxy !== null));
  up.on('error', (err: NodeJS.ErrnoException) => {
    if (res.headersSent) res.destroy();
    else res.fail(failureOfErrno(err.code));
  });
  // A request without a body (no Content-Length, no Transfer-Encoding: RFC 9112 §6.3) needs no pipe.
  if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
    up.end();
    req.resume();
  } else {
    req.pipe(up);
  }
}

function onAnswer(res: GatewayResponse, answer: http.IncomingMessage, viaProxy: boolean): void {
  const status = answer.statusCode ?? 0;
  // An upstream's own 407 is about the gateway's credentials there, not the client's (docs/gateway.md).
  if ((viaProxy && status === 407) || status < 100 || status > 999) {
    answer.resume();
    return res.fail(status === 407 ? 'UPSTREAM_AUTH' : 'UPSTREAM_ERROR');
  }
  res.answered();
  if (res.writableEnded || res.destroyed) return void answer.resume();
  const headers = forwardedHeaders(answer.rawHeaders);
  try {
    res.writeHead(status, answer.statusMessage, headers);
  } catch {
    // A field Node refuses to write (the lenient parser let it in): the answer goes without it.
    res.writeHead(status, answer.statusMessage, validOnly(headers));
  }
  answer.on('data', (chunk: Buffer) => {
    if (!res.write(chunk)) {
      answer.pause();
      res.once('drain', () => answer.resume());
    }
  });
  answer.on('end', () => res.end());
  // Cut short (the exit closed mid-body): the client must not take a truncated body for a whole one.
  answer.on('close', () => {
    if (!answer.complete) res.destroy();
  });
}

function validOnly(raw: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    try {
      http.validateHeaderName(raw[i]!);
      http.validateHeaderValue(raw[i]!, raw[i + 1]!);
      out.push(raw[i]!, raw[i + 1]!);
    } catch {
      // Dropped.
    }
  }
  return out;
}
