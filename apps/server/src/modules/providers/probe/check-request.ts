import http from 'node:http';
import net from 'node:net';
import tls from 'node:tls';

/** The most of the check URL's answer a probe reads: an IP-info answer is a few hundred bytes. */
export const MAX_ANSWER_BYTES = 64 * 1024;

export type CheckOutcome = { status: number; body: string } | { failure: string };

/**
 * `GET` the check URL over a socket already connected (through the provider) to its host, with Node's HTTP
 * client; an https URL is wrapped in TLS first (certificate checked against the URL's name). Resolves with the
 * status and at most MAX_ANSWER_BYTES of body, or why there is none; `onHead` is called at the answer's head
 * (the probe's latency). The socket is always destroyed at the end. `trust`: more CAs to accept (tests).
 */
export function requestCheck(raw: net.Socket, url: URL, timeoutMs: number, onHead: () => void, trust?: tls.SecureContextOptions['ca']): Promise<CheckOutcome> {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  // `host` is the name the certificate is checked against (an IP literal: its IP SANs); SNI takes names only.
  const socket = url.protocol === 'https:' ? tls.connect({ socket: raw, host, servername: net.isIP(host) === 0 ? host : undefined, ALPNProtocols: ['http/1.1'], ...(trust ? { ca: trust } : {}) }) : raw;
  return new Promise((resolve) => {
    let settled = false;
    const settle = (outcome: CheckOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
      req.destroy();
      socket.destroy();
      raw.destroy();
    };
    const timer = setTimeout(() => settle({ failure: 'CHECK_TIMEOUT' }), timeoutMs);
    const req = http.request({
      createConnection: () => socket,
      method: 'GET',
      path: `${url.pathname}${url.search}`,
      headers: { host: url.host, accept: 'application/json', 'user-agent': 'resi-console-probe', connection: 'close' },
    });
    // The dial hands the socket over paused; the client's listeners are on it once 'socket' is emitted.
    req.once('socket', () => raw.resume());
    req.on('error', (err: NodeJS.ErrnoException) => settle({ failure: failureOfCheckError(err) }));
    req.once('response', (res: http.IncomingMessage) => {
      onHead();
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () => settle({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
      res.on('data', (chunk: Buffer) => {
        const room = MAX_ANSWER_BYTES - size;
        chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
        size += Math.min(chunk.length, room);
        if (size >= MAX_ANSWER_BYTES) done();
      });
      res.once('end', done);
      // A close before the end (the exit cut the answer): what came is what we judge.
      res.once('close', done);
      res.on('error', () => undefined);
    });
    req.end();
  });
}

function failureOfCheckError(err: NodeJS.ErrnoException): string {
  const code = err.code ?? 'ERROR';
  // Certificate and handshake failures name themselves (CERT_HAS_EXPIRED, ERR_TLS_CERT_ALTNAME_INVALID, …).
  if (/CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO/.test(code)) return `TLS ${code}`.slice(0, 80);
  return `CHECK_ERROR ${code}`.slice(0, 80);
}

/** Field names IP-info services put the exit's country under (ipapi.co, ip-api.com, ipinfo.io, …). */
const COUNTRY_FIELDS = ['country_code', 'countryCode', 'country', 'cc'] as const;

/** The exit's country (upper case) from a JSON answer, or null when the answer names none. */
export function exitCountry(body: string): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const fields = parsed as Record<string, unknown>;
  for (const name of COUNTRY_FIELDS) {
    const v = fields[name];
    // `country` is a name ("United States") for some services: only a two-letter value is a code.
    if (typeof v === 'string' && /^[A-Za-z]{2}$/.test(v.trim())) return v.trim().toUpperCase();
  }
  return null;
}
