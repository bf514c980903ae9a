import type { ReviewReason } from '@resi/contract';
import { type Clock, DAY, MINUTE, iso } from '../lib/clock';
import type { PaymentOrders, PaymentRecorder, PaymentSettings } from './provider';
import { DEFAULT_TRON_API, USDT_CONTRACT, USDT_DECIMALS, formatUsdt, tronAddressToHex } from './usdt-trc20';

/** One entry of TronGrid's `GET /v1/accounts/{address}/transactions/trc20`. */
interface Trc20Transfer {
  transaction_id: string;
  token_info?: { address?: string; decimals?: number; symbol?: string };
  block_timestamp: number;
  from: string;
  to: string;
  type: string;
  value: string;
}
interface Trc20Page {
  success?: boolean;
  data?: Trc20Transfer[];
  meta?: { fingerprint?: string };
}
/** `/walletsolidity/gettransactioninfobyid`: `{}` until the transaction is solidified. */
interface TransactionInfo {
  id?: string;
  blockNumber?: number;
  receipt?: { result?: string };
  log?: { address?: string; topics?: string[]; data?: string }[];
}

export interface WatchResult {
  seen: number;
  credited: number;
  review: number;
}

interface Poll {
  api: string;
  headers: Record<string, string>;
  address: string;
  addressHex: string;
  get: typeof fetch;
  result: WatchResult;
}

const PAGE_LIMIT = 200;
/** TronGrid answers at most 1,000 rows per time window (5 pages); the next poll moves the window on. */
const MAX_PAGES = 5;
/** Re-read this much before the newest transfer seen: late-indexed transfers are not missed. */
const OVERLAP = 10 * MINUTE;
/** How far the first poll after a start reads back; a transfer still unconfirmed after that is given up. */
const LOOKBACK = DAY;
/** An order this old is not matched by amount any more. */
const MATCH_WINDOW = 7 * DAY;
/** Block time and our clock may disagree a little; a transfer older than its order by more was not for it. */
const CLOCK_SLACK = 2 * MINUTE;
/** keccak256("Transfer(address,address,uint256)"), the event every TRC-20 transfer logs. */
const TRANSFER_TOPIC = 'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
/** Log addresses are the 20-byte EVM form: the TRON hex address without its `41` prefix. */
const USDT_LOG_ADDRESS = tronAddressToHex(USDT_CONTRACT)!.slice(2);
const TIMEOUT_MS = 15_000;

/**
 * Watches the operator's TRON address for USDT transfers (docs/business-rules.md#payment-methods) and hands each one, once, to
 * fulfilment: an exact match of an open order pays it, anything else to our address goes to review.
 *
 * What counts: TronGrid's list of confirmed (`only_confirmed`) transfers of Tether's contract to our
 * address, each then checked against a solidity node (`/walletsolidity/gettransactioninfobyid`, which
 * TronGrid serves and which answers only for solidified, i.e. irreversible, transactions): the receipt
 * must say `SUCCESS` and its logs must hold a Transfer event of Tether's contract to our address for the
 * listed value. A transaction the node does not know yet is asked about again on every poll for up to
 * a day, whatever the list's cursor does; a failed one moved no money and is ignored.
 */
export class UsdtWatcher {
  /** Lower bound (block time, ms) of the next list request; in memory, re-reads are harmless. */
  private cursor: number | null = null;
  private readonly unsettled = new Map<string, Trc20Transfer>();
  /** Failed transactions, so the overlap does not ask about them again. */
  private readonly failed = new Map<string, number>();

  constructor(
    private readonly d: {
      clock: Clock;
      payConfigs: PaymentSettings;
      fulfilment: PaymentRecorder;
      orders: Pick<PaymentOrders, 'byPayAmount'>;
      log: { warn(obj: object, msg: string): void };
      fetch?: typeof fetch;
    },
  ) {}

  /** One round; throws when the TRON API cannot be read (the schedule logs it and tries again). */
  async pollOnce(): Promise<WatchResult> {
    const result: WatchResult = { seen: 0, credited: 0, review: 0 };
    const cfg = await this.d.payConfigs.get('usdt-trc20');
    const address = cfg.settings.address ?? '';
    const addressHex = tronAddressToHex(address);
    if (!cfg.enabled || !addressHex) return result;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (cfg.secrets.apiKey) headers['TRON-PRO-API-KEY'] = cfg.secrets.apiKey;
    const poll: Poll = { api: (cfg.settings.apiBase || DEFAULT_TRON_API).replace(/\/+$/, ''), headers, address, addressHex, get: this.d.fetch ?? fetch, result };

    const now = this.d.clock.now().getTime();
    this.forgetOlderThan(now - LOOKBACK);
    for (const t of [...this.unsettled.values()]) await this.handle(t, poll);

    const since = this.cursor ?? now - LOOKBACK;
    let newest = since;
    let complete = false;
    let fingerprint: string | undefined;
    for (let page = 0; page < MAX_PAGES && !complete; page++) {
      const body = await this.listPage(poll, since, fingerprint);
      for (const t of body.data!) {
        if (Number.isSafeInteger(t.block_timestamp)) newest = Math.max(newest, t.block_timestamp);
        if (this.isOurUsdt(t, address)) await this.handle(t, poll);
      }
      fingerprint = body.meta?.fingerprint;
      complete = !fingerprint || body.data!.length < PAGE_LIMIT;
    }
    // Read to the end: step back by the overlap for late-indexed transfers. Cut short: go on from there.
    this.cursor = complete ? Math.max(since, newest - OVERLAP, now - LOOKBACK) : newest;
    return result;
  }

  private async listPage(p: Poll, since: number, fingerprint: string | undefined): Promise<Trc20Page> {
    const url = new URL(`${p.api}/v1/accounts/${p.address}/transactions/trc20`);
    url.search = new URLSearchParams({
      only_to: 'true',
      only_confirmed: 'true',
      limit: String(PAGE_LIMIT),
      contract_address: USDT_CONTRACT,
      order_by: 'block_timestamp,asc',
      min_timestamp: String(since),
      ...(fingerprint ? { fingerprint } : {}),
    }).toString();
    const res = await p.get(url, { headers: p.headers, signal: AbortSignal.timeout(TIMEOUT_MS) });
    if (!res.ok) throw new Error(`TRON API answered ${res.status}`);
    const body = (await res.json()) as Trc20Page;
    if (body.success === false || !Array.isArray(body.data)) throw new Error('TRON API answered without data');
    return body;
  }

  private isOurUsdt(t: Trc20Transfer, address: string): boolean {
    return (
      t.token_info?.address === USDT_CONTRACT &&
      t.token_info.decimals === USDT_DECIMALS &&
      t.to === address &&
      t.type === 'Transfer' &&
      /^\d{1,15}$/.test(t.value) &&
      /^[0-9a-f]{64}$/i.test(t.transaction_id) &&
      Number.isSafeInteger(t.block_timestamp)
    );
  }

  private async handle(t: Trc20Transfer, p: Poll): Promise<void> {
    const txid = t.transaction_id.toLowerCase();
    if (this.failed.has(txid)) return;
    p.result.seen += 1;
    if (await this.d.fulfilment.isRecorded('usdt-trc20', txid)) {
      this.unsettled.delete(txid);
      return;
    }
    const verdict = await this.confirm(t, txid, p);
    if (verdict === 'unknown') {
      this.unsettled.set(txid, t);
      return;
    }
    this.unsettled.delete(txid);
    if (verdict === 'failed') {
      this.failed.set(txid, t.block_timestamp);
      return;
    }
    const outcome = await this.record(t, txid);
    if (outcome === 'credited') p.result.credited += 1;
    if (outcome === 'review') p.result.review += 1;
  }

  /** The solidity node's word on a listed transfer: final and as listed, failed or not as listed, or not known yet. */
  private async confirm(t: Trc20Transfer, txid: string, p: Poll): Promise<'ok' | 'failed' | 'unknown'> {
    let info: TransactionInfo;
    try {
      const res = await p.get(`${p.api}/walletsolidity/gettransactioninfobyid`, {
        method: 'POST',
        headers: { ...p.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ value: txid }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      if (!res.ok) throw new Error(`TRON API answered ${res.status}`);
      info = (await res.json()) as TransactionInfo;
    } catch (err) {
      this.d.log.warn({ err: String(err), txid }, 'USDT watcher: receipt not readable, asking again next poll');
      return 'unknown';
    }
    if (info.id?.toLowerCase() !== txid || typeof info.blockNumber !== 'number') return 'unknown';
    if (info.receipt?.result !== 'SUCCESS') return 'failed';
    const toTopic = '0'.repeat(24) + p.addressHex.slice(2);
    const logged = (info.log ?? []).some(
      (l) =>
        l.address?.toLowerCase() === USDT_LOG_ADDRESS &&
        l.topics?.[0]?.toLowerCase() === TRANSFER_TOPIC &&
        l.topics[2]?.toLowerCase() === toTopic &&
        /^[0-9a-f]{1,64}$/i.test(l.data ?? '') &&
        BigInt(`0x${l.data}`) === BigInt(t.value),
    );
    if (!logged) this.d.log.warn({ txid, value: t.value }, 'USDT watcher: listed transfer is not in its receipt; ignored');
    return logged ? 'ok' : 'failed';
  }

  /**
   * Finds the order the transfer was for: among recent USDT orders with exactly this amount that
   * already existed when it was sent, the open one, else the newest (an expired or paid order: review
   * naming it). One that only came later gets review `PAID_BEFORE_ORDER`, never the credit.
   */
  private async record(t: Trc20Transfer, txid: string) {
    const amount = Number(t.value);
    const candidates = await this.d.orders.byPayAmount({
      method: 'usdt-trc20',
      currency: 'USDT',
      amount,
      since: iso(new Date(this.d.clock.now().getTime() - MATCH_WINDOW)),
    });
    const existed = candidates.filter((o) => Date.parse(o.created_at) <= t.block_timestamp + CLOCK_SLACK);
    const match = existed.find((o) => o.status === 'pending') ?? existed[0];
    const problem: ReviewReason | undefined = !match && candidates[0] ? 'PAID_BEFORE_ORDER' : undefined;
    const outcome = await this.d.fulfilment.recordEvent({
      provider: 'usdt-trc20',
      eventId: txid,
      orderNo: (match ?? candidates[0])?.order_no ?? null,
      amount,
      currency: 'USDT',
      display: formatUsdt(amount),
      by: 'watcher',
      problem,
      payload: { from: t.from, blockTimestamp: t.block_timestamp },
    });
    return outcome.result;
  }

  private forgetOlderThan(limit: number): void {
    for (const [txid, ts] of this.failed) if (ts < limit) this.failed.delete(txid);
    for (const [txid, t] of this.unsettled) {
      if (t.block_timestamp >= limit) continue;
      this.unsettled.delete(txid);
      this.d.log.warn({ txid, value: t.value }, 'USDT watcher: transfer never confirmed by a solidity node; given up');
    }
  }
}
