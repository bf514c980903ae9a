import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM with a key derived from APP_SECRET (HKDF, one label per use), for secrets kept in the
 * database such as payment credentials. Format: `v1.<iv>.<tag>.<ciphertext>` in base64url.
 */
export class SealedBox {
  private readonly key: Buffer;
  constructor(appSecret: string, label: string) {
    this.key = Buffer.from(hkdfSync('sha256', appSecret, 'resi-console', label, 32));
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), body].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
  }

  open(sealed: string): string {
    const [v, iv, tag, body] = sealed.split('.');
    if (v !== 'v1' || !iv || !tag || body === undefined) throw new Error('not a sealed value');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }
}

/** One key per use, so a value sealed for one purpose never opens as another. */
export const SEAL_LABELS = { payConfig: 'pay-config', proxyPassword: 'proxy-password', upstreamPassword: 'upstream-password', staticUpstreamPassword: 'static-upstream-password', webhookSecret: 'webhook-secret' } as const;

/** How a stored secret is shown back: enough to recognise which key is saved, never enough to use it. */
export function mask(secret: string): string {
  return secret.length > 12 ? `••••${secret.slice(-4)}` : '••••';
}
