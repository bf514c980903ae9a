import { SMTPServer } from 'smtp-server';

export interface SinkMessage {
  to: string[];
  raw: string;
}

/** A real SMTP server on 127.0.0.1 that keeps what it receives: the mail path is exercised end to end. */
export async function startSmtpSink(): Promise<{ url: string; messages: SinkMessage[]; close(): Promise<void> }> {
  const messages: SinkMessage[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    // No reverse DNS lookup per connection (the sink still waits 100 ms per connection for early talkers).
    disableReverseLookup: true,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        messages.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The six-digit code of the newest message sent to `email`. */
export function lastCodeFor(messages: SinkMessage[], email: string): string {
  const msg = [...messages].reverse().find((m) => m.to.includes(email));
  const mail = msg ? parseMail(msg.raw) : undefined;
  const code = mail ? /(?<!\d)(\d{6})(?!\d)/.exec(mail.text)?.[1] : undefined;
  if (!code) throw new Error(`no code mailed to ${email}`);
  return code;
}

/** Decoded subject and plain-text body of a single-part message (what our mailer sends). */
export function parseMail(raw: string): { subject: string; text: string; headers: Record<string, string> } {
  const split = /\r?\n\r?\n/.exec(raw);
  const head = split ? raw.slice(0, split.index) : raw;
  const body = split ? raw.slice(split.index + split[0].length) : '';
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  const cte = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  const bytes =
    cte === 'base64' ? Buffer.from(body.replace(/\s+/g, ''), 'base64') : cte === 'quoted-printable' ? qp(body.replace(/=\r?\n/g, '')) : Buffer.from(body);
  return { subject: decodeWords(headers.subject ?? ''), text: bytes.toString('utf8'), headers };
}

function qp(s: string): Buffer {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(s.slice(i + 1, i + 3))) {
      out.push(parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else out.push(...Buffer.from(s[i]!));
  }
  return Buffer.from(out);
}

/** RFC 2047 encoded-words; whitespace between two adjacent encoded-words is not part of the text. */
function decodeWords(value: string): string {
  return value
    .replace(/(\?=)\s+(=\?)/g, '$1$2')
    .replace(/=\?[^?]+\?([QqBb])\?([^?]*)\?=/g, (_m, enc: string, data: string) =>
      (enc.toUpperCase() === 'B' ? Buffer.from(data, 'base64') : qp(data.replace(/_/g, ' '))).toString('utf8'),
    );
}
