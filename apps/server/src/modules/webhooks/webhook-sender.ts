import http from 'node:http';
import https from 'node:https';
import { hmac } from '../../lib/secrets';
import { DESTINATION_REFUSED, type WebhookDestinations } from './webhook-destination';

/** What one POST to a receiver came to. */
export interface SendOutcome {
  /** The receiver's HTTP status; null when there was none (refused, timed out, no connection). */
  statusCode: number | null;
  /** The start of its answer as text (at most RESPONSE_KEEP bytes). */
  response: string | null;
  /** Why there was no answer. */
  error: string | null;
  /** A 429's or 503's `Retry-After` (RFC 9110 §10.2.3), as sent: when the receiver asks to be tried again. */
  retryAfter?: string;
}

/**
 * How long a `Retry-After` asks to wait from `nowMs`: delay-seconds or an HTTP-date (RFC 9110 §10.2.3); null when
 * there is none or it cannot be read. Two forms of one header: no library for it was worth a dependency.
 */
export function retryAfterMs(value: string | undefined, nowMs: number): number | null {
  const v = value?.trim();
  if (!v) return null;
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}

export interface SignedDelivery {
  url: string;
  secret: string;
  body: string;
  event: string;
  deliveryId: number;
  /** Unix seconds: signed with the body and sent in X-Resi-Timestamp. */
  timestamp: number;
}

/** Bytes of a receiver's answer kept in the log. */
export const RESPONSE_KEEP = 1024;

/**
 * `v1=` and the hex HMAC-SHA256, keyed with the endpoint's secret, of `<timestamp>.<body>` (docs/api.md#webhooks):
 * the timestamp is signed so a captured delivery cannot be replayed later as a new one.
 */
export const signature = (secret: string, timestamp: number, body: string): string => `v1=${hmac(secret, `${timestamp}.${body}`)}`;

/**
 * Sends deliveries: one POST, no redirects followed (a 3xx is not a delivery), the answer read up to
 * RESPONSE_KEEP bytes, the whole exchange within `timeoutMs`. The connection goes only where the
 * destination guard's lookup allows.
 */
export class WebhookSender {
  constructor(
    private readonly destinations: WebhookDestinations,
    private readonly userAgent: string,
    private readonly timeoutMs: number,
  ) {}

  send(d: SignedDelivery): Promise<SendOutcome> {
    let url: URL;
    try {
      url = new URL(d.url);
    } catch {
      return Promise.resolve({ statusCode: null, response: null, error: 'not a valid URL' });
    }
    const refused = this.destinations.refusesBeforeLookup(url);
    if (refused) return Promise.resolve({ statusCode: null, response: null, error: refused });
    const body = Buffer.from(d.body, 'utf8');
    const headers = {
      'content-type': 'application/json',
      'content-length': String(body.length),
      'user-agent': this.userAgent,
      'x-resi-event': d.event,
      'x-resi-delivery': String(d.deliveryId),
      'x-resi-timestamp': String(d.timestamp),
      'x-resi-signature': signature(d.secret, d.timestamp, d.body),
    };
    const lib = url.protocol === 'https:' ? https : http;
    return new Promise<SendOutcome>((resolve) => {
      let settled = false;
      const finish = (o: SendOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        req.destroy();
        resolve(o);
      };
      const req = lib.request(url, { method: 'POST', headers, agent: false, ...(this.destinations.lookup ? { lookup: this.destinations.lookup } : {}) }, (res) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        const retryAfter = res.statusCode === 429 || res.statusCode === 503 ? res.headers['retry-after'] : undefined;
        const done = () => finish({ statusCode: res.statusCode ?? null, response: text(Buffer.concat(chunks)), error: null, ...(retryAfter ? { retryAfter } : {}) });
        res.on('data', (chunk: Buffer) => {
          if (kept < RESPONSE_KEEP) {
            chunks.push(chunk.subarray(0, RESPONSE_KEEP - kept));
            kept += Math.min(chunk.length, RESPONSE_KEEP - kept);
          }
          // Enough to log: the rest of a long answer is not waited for.
          if (kept >= RESPONSE_KEEP) done();
        });
        res.on('end', done);
        res.on('error', done);
      });
      const timer = setTimeout(() => finish({ statusCode: null, response: null, error: `no answer within ${this.timeoutMs / 1000} s` }), this.timeoutMs);
      req.on('error', (err: NodeJS.ErrnoException) => finish({ statusCode: null, response: null, error: describe(err) }));
      req.end(body);
    });
  }
}

/** Text as stored: UTF-8, without NUL (PostgreSQL's text refuses it). */
const text = (buf: Buffer): string | null => (buf.length === 0 ? null : buf.toString('utf8').replaceAll('\u0000', ''));

function describe(err: NodeJS.ErrnoException): string {
  const message = err.message || String(err);
  // The guard's refusal says what it is; a network error is named by its code.
  const line = err.code && err.code !== DESTINATION_REFUSED && !message.includes(err.code) ? `${err.code}: ${message}` : message;
  return line.slice(0, 500);
}
