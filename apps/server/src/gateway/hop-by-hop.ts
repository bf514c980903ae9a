/**
 * Removes from a plain HTTP request's raw headers what belongs to the client's hop to us and must not
 * reach the target (RFC 9110 §7.6.1): `Proxy-Connection` (the legacy header curl and browsers send to a
 * proxy; forwarded, it tells the origin a proxy is in use) and every field the `Connection` header
 * names. proxy-chain's own filter drops the fixed hop-by-hop names (Connection, Keep-Alive,
 * Proxy-Authorization, TE, Trailer, Transfer-Encoding, Upgrade) but neither of these.
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
      // `close` and `keep-alive` are the usual options and name no field proxy-chain would forward.
      if (option && option !== 'close' && option !== 'keep-alive') (named ??= new Set()).add(option);
    }
  }
  for (let i = raw.length - 2; i >= 0; i -= 2) {
    const name = raw[i]!;
    if (name.length === 16 ? name.toLowerCase() === 'proxy-connection' : named !== null && named.has(name.toLowerCase())) raw.splice(i, 2);
  }
}
