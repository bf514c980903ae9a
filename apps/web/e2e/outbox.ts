import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { E2E } from './e2e-env';

/** The newest six-digit code mailed to `email`, read from the server's outbox (.eml files). */
export async function codeFromOutbox(email: string, after = 0): Promise<string> {
  const dir = path.join(E2E.dataDir, 'outbox');
  for (let i = 0; i < 50; i++) {
    if (existsSync(dir)) {
      const files = readdirSync(dir)
        .filter((f) => f.endsWith('.eml') && Number(f.split('-')[0]) >= after)
        .sort()
        .reverse();
      for (const f of files) {
        const raw = readFileSync(path.join(dir, f), 'utf8');
        if (!raw.toLowerCase().includes(`to: ${email.toLowerCase()}`)) continue;
        const body = raw.split(/\r?\n\r?\n/).slice(1).join('\n');
        const code = /\b(\d{6})\b/.exec(decodeBody(body))?.[1];
        if (code) return code;
      }
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no mail with a code for ${email}`);
}

function decodeBody(body: string): string {
  // nodemailer picks quoted-printable or base64 for non-ASCII text; decode both forms.
  const qp = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
  const b64 = /^[A-Za-z0-9+/=\r\n]+$/.test(body.trim()) ? Buffer.from(body, 'base64').toString('utf8') : '';
  return `${qp}\n${b64}`;
}
