import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tronAddressToHex } from '../src/payments/usdt-trc20';

export interface FakeTransfer {
  transaction_id: string;
  token_info: { address: string; decimals: number; symbol: string; name: string };
  block_timestamp: number;
  from: string;
  to: string;
  type: string;
  value: string;
}

/** What the solidity node says about a transaction; the Transfer log is built from the listed transfer unless overridden. */
export interface FakeReceipt {
  result: string;
  /** A receipt that disagrees with the list (tampered): another value, recipient or token. */
  value?: string;
  to?: string;
  contract?: string;
}

const TRANSFER_TOPIC = 'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const word = (hex: string) => hex.padStart(64, '0');
/** A log address or topic address: the 20-byte EVM form (TRON hex without `41`). */
const evm = (base58: string) => tronAddressToHex(base58)!.slice(2);

/**
 * A local stand-in for TronGrid, in its formats: `GET /v1/accounts/:address/transactions/trc20` (v1 list
 * with `only_to`, `contract_address`, `min_timestamp`, `order_by`, `limit` and `meta.fingerprint` paging)
 * and `POST /walletsolidity/gettransactioninfobyid` (`{}` for a transaction that is not solidified).
 */
export async function startFakeTron() {
  const transfers: FakeTransfer[] = [];
  const receipts = new Map<string, FakeReceipt>();
  let down = false;
  let receiptsDown = false;
  const requests: { method: string; url: string; apiKey: string | undefined }[] = [];

  function receiptOf(txid: string) {
    const r = receipts.get(txid);
    const tx = transfers.find((t) => t.transaction_id === txid);
    if (!r || !tx) return {};
    const log = {
      address: evm(r.contract ?? tx.token_info.address),
      topics: [TRANSFER_TOPIC, word(evm(tx.from)), word(evm(r.to ?? tx.to))],
      data: word(BigInt(r.value ?? tx.value).toString(16)),
    };
    return {
      id: txid,
      fee: 13_844_850,
      blockNumber: 70_000_000,
      blockTimeStamp: tx.block_timestamp,
      contractResult: [r.result === 'SUCCESS' ? word('1') : ''],
      contract_address: tronAddressToHex(tx.token_info.address),
      receipt: { energy_usage_total: 64_285, net_usage: 345, result: r.result },
      ...(r.result === 'SUCCESS' ? { log: [log] } : { result: 'FAILED', resMessage: '' }),
    };
  }

  const server: Server = createServer((req, res) => {
    const key = req.headers['tron-pro-api-key'];
    requests.push({ method: req.method ?? '', url: req.url ?? '', apiKey: typeof key === 'string' ? key : undefined });
    const url = new URL(req.url ?? '/', 'http://x');
    const m = /^\/v1\/accounts\/([^/]+)\/transactions\/trc20$/.exec(url.pathname);
    if (down || (receiptsDown && !m)) {
      res.writeHead(503).end('unavailable');
      return;
    }
    if (req.method === 'GET' && m) {
      const q = url.searchParams;
      const min = Number(q.get('min_timestamp') ?? 0);
      const limit = Math.min(Number(q.get('limit') ?? 20), 200);
      const contract = q.get('contract_address');
      const asc = q.get('order_by') === 'block_timestamp,asc';
      let list = transfers
        .filter((t) => (q.get('only_to') === 'true' ? t.to === m[1] : t.to === m[1] || t.from === m[1]))
        .filter((t) => !contract || t.token_info.address === contract)
        .filter((t) => t.block_timestamp >= min)
        .sort((a, b) => (asc ? a.block_timestamp - b.block_timestamp : b.block_timestamp - a.block_timestamp));
      const after = q.get('fingerprint');
      if (after) list = list.slice(list.findIndex((t) => t.transaction_id === after) + 1);
      const page = list.slice(0, limit);
      const more = list.length > limit;
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          data: page,
          success: true,
          meta: { at: Date.now(), page_size: page.length, ...(more ? { fingerprint: page.at(-1)!.transaction_id } : {}) },
        }),
      );
      return;
    }
    if (req.method === 'POST' && url.pathname === '/walletsolidity/gettransactioninfobyid') {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const { value } = JSON.parse(body) as { value: string };
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(receiptOf(value)));
      });
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    transfers,
    receipts,
    requests,
    /** The whole API answers 503. */
    setDown: (v: boolean) => (down = v),
    /** Only the solidity node answers 503; the list still works. */
    setReceiptsDown: (v: boolean) => (receiptsDown = v),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
