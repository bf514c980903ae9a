/**
 * A provider template turns one upstream account into many exits by rewriting its username (or
 * password) per connection, e.g. `http://USER[-country-{country}][-city-{city}]-session-{session}:PASS@gw.example.net:7000`.
 *
 * Placeholders: `{country}` (lower case) and `{COUNTRY}` (upper case), `{state}`, `{city}`, `{session}`
 * (a fresh id per rotating connection, a stable one per sticky session) and `{life}` (minutes).
 * A part in `[…]` is left out when a placeholder inside it has no value; a placeholder outside brackets
 * without a value means the template cannot serve that request.
 */
export interface TemplateValues {
  country: string | null;
  state: string | null;
  city: string | null;
  session: string;
  life: number;
}

const PLACEHOLDER = /\{(country|COUNTRY|state|city|session|life)\}/g;
const OPTIONAL = /\[([^[\]]*)\]/g;

function value(name: string, v: TemplateValues): string | null {
  switch (name) {
    case 'country':
      return v.country?.toLowerCase() ?? null;
    case 'COUNTRY':
      return v.country?.toUpperCase() ?? null;
    case 'state':
      return v.state;
    case 'city':
      return v.city;
    case 'session':
      return v.session;
    default:
      return String(v.life);
  }
}

function fill(part: string, v: TemplateValues): string | null {
  let missing = false;
  const out = part.replace(PLACEHOLDER, (_, name: string) => {
    const x = value(name, v);
    if (x === null) missing = true;
    return x ?? '';
  });
  return missing ? null : out;
}

/** The upstream URL for these values, or null when the template cannot express them. */
export function renderTemplate(template: string, v: TemplateValues): string | null {
  const withOptional = template.replace(OPTIONAL, (_, inner: string) => fill(inner, v) ?? '');
  return fill(withOptional, v);
}

/** Throws when the template is not a usable upstream URL (checked once, when supply is loaded). */
export function assertTemplate(template: string): void {
  const sample = renderTemplate(template, { country: 'us', state: 'ca', city: 'losangeles', session: 'abc123', life: 10 });
  if (sample === null || /[{}[\]]/.test(sample.replace(/^[a-z0-9]+:\/\/\[[^\]]*\]/, ''))) {
    throw new Error(`Provider template has an unknown placeholder or unbalanced brackets: ${redact(template)}`);
  }
  let url: URL;
  try {
    url = new URL(sample);
  } catch {
    throw new Error(`Provider template is not a URL: ${redact(template)}`);
  }
  if (!['http:', 'socks:', 'socks5:', 'socks5h:', 'socks4:', 'socks4a:'].includes(url.protocol)) {
    throw new Error(`Provider template must be an http:// or socks5:// URL: ${redact(template)}`);
  }
}

/** Never echo a template's password into an error message or log. */
function redact(template: string): string {
  return template.replace(/(\/\/[^:@/]*:)[^@]*@/, '$1****@');
}
