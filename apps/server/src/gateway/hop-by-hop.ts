/**
 * Removes from a plain HTTP request's raw headers what belongs to the client's hop to us and must not
 * reach the target (RFC 9110 §7.6.1): `Proxy-Connection` (the legacy header curl and browsers send to a
 * proxy; forwarded, it tells the origin a proxy is in use) and every field the `Connection` header
 * names. `forwardedHeaders` also drops the fixed hop-by-hop names.
 *
 * Runs for every plain request: one pass over the array and no allocation when there is nothing to
 * remove (the usual case apart from `Proxy-Connection`, which is taken out in place).
 */
export function stripHopByHop(raw: string[]): void {
  let named: Set<string> | null = null;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length !== 10 || name.toLowerCase() !== 'connection') continue;
    for (const token of raw[i + 1]!.split(',')) {
      const option = token.trim().toLowerCase();
      // `close` and `keep-alive` are the usual options and name no field that would be forwarded.
      if (option && option !== 'close' && option !== 'keep-alive') (named ??= new Set()).add(option);
    }
  }
  for (let i = raw.length - 2; i >= 0; i -= 2) {
    const name = raw[i]!;
    if (name.length === 16 ? name.toLowerCase() === 'proxy-connection' : named !== null && named.has(name.toLowerCase())) raw.splice(i, 2);
  }
}

/** Hop-by-hop by definition (RFC 9110 §7.6.1, RFC 9112 §9.6 and §6.1), whatever `Connection` says; lower case. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/**
 * What a plain request's (or its answer's) raw headers forward to the next hop: a new array without the
 * hop-by-hop fields (the fixed ones, `Proxy-Connection`, those `Connection` names) and without a second
 * `Host` (RFC 9112 §3.2: a request with two is invalid; the first is the one the origin would read).
 * Node writes its own `Connection`, `Keep-Alive` and `Transfer-Encoding` for the hop it sends on.
 */
export function forwardedHeaders(raw: string[]): string[] {
  const out: string[] = [];
  let host = false;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) && lower !== 'connection') continue;
    if (lower === 'host') {
      if (host) continue;
      host = true;
    }
    out.push(name, raw[i + 1]!);
  }
  // `Connection` stayed until here so that stripHopByHop finds the fields it names; now it goes too.
  stripHopByHop(out);
  for (let i = out.length - 2; i >= 0; i -= 2) if (out[i]!.length === 10 && out[i]!.toLowerCase() === 'connection') out.splice(i, 2);
  return out;
}
