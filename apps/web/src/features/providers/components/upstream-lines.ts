import { PROVIDER_MAX_UPSTREAMS, providerUpstream, type ProviderDto, type ProviderUpstream } from '@resi/contract';

/*
 * A provider's upstreams as the form's text: one per line, `URL[,country[,state[,city]]]`
 * (`http://user:pass@198.51.100.7:8000,US,ca,losangeles`). Blank lines are skipped, but line numbers count
 * every line, so an error names the line the operator sees.
 */

/** Why a line was refused: its number (1-based) and an i18n key (the contract's `validation.*`, or `providers.form.*`). */
export interface UpstreamLineError {
  line: number;
  message: string;
}

export type ParsedUpstreams = { ok: true; upstreams: ProviderUpstream[] } | { ok: false; error: UpstreamLineError };

/**
 * One line's fields. The URL ends with `host:port` and the codes never hold a colon, so the URL is everything
 * up to the last comma-separated part that has one: a comma inside a password does not split the URL.
 */
function splitLine(line: string): { url: string; codes: string[] } {
  const parts = line.split(',');
  let last = 0;
  parts.forEach((part, i) => {
    if (part.includes(':')) last = i;
  });
  return { url: parts.slice(0, last + 1).join(',').trim(), codes: parts.slice(last + 1).map((p) => p.trim()) };
}

const orNull = (text: string | undefined): string | null => (text === undefined || text === '' ? null : text);

/** The textarea's text → the body's upstreams, checked by the contract's own schema; the first bad line stops it. */
export function parseUpstreamLines(text: string): ParsedUpstreams {
  const upstreams: ProviderUpstream[] = [];
  const lines = text.split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === '') continue;
    const number = index + 1;
    const { url, codes } = splitLine(line);
    if (codes.length > 3) return { ok: false, error: { line: number, message: 'providers.form.lineFields' } };
    const parsed = providerUpstream.safeParse({ url, country: orNull(codes[0]), state: orNull(codes[1]), city: orNull(codes[2]) });
    if (!parsed.success) return { ok: false, error: { line: number, message: parsed.error.issues[0]?.message ?? 'validation.upstreamUrl' } };
    upstreams.push(parsed.data);
    if (upstreams.length > PROVIDER_MAX_UPSTREAMS) return { ok: false, error: { line: number, message: 'providers.form.tooManyUpstreams' } };
  }
  return { ok: true, upstreams };
}

/** A provider's upstreams (passwords masked as the server sent them) → the textarea's text; empty trailing fields are left off. */
export function formatUpstreamLines(upstreams: ProviderDto['upstreams']): string {
  return upstreams
    .map((u) => {
      const fields = [u.url, u.country ?? '', u.state ?? '', u.city ?? ''];
      while (fields.length > 1 && fields.at(-1) === '') fields.pop();
      return fields.join(',');
    })
    .join('\n');
}
