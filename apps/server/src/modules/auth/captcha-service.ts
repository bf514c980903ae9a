import type { Kysely } from 'kysely';
import { randomUUID } from 'node:crypto';
import svgCaptcha from 'svg-captcha';
import type { Database } from '../../db/schema';
import { type Clock, MINUTE, addMs, iso } from '../../lib/clock';
import { hmac, safeEqual } from '../../lib/secrets';
import { AppError } from '../../shared/errors';
import { CaptchaRepository } from './captcha-repository';

const CAPTCHA_TTL = 5 * MINUTE;

/**
 * Self-hosted image captcha: the answer is kept only as an HMAC, in the database so that any API
 * instance can check it, and a check deletes the row first, so each captcha is good for one attempt.
 */
export class CaptchaService {
  private readonly captchas: CaptchaRepository;

  constructor(
    db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly secret: string,
    private readonly testAnswer: string | undefined,
  ) {
    this.captchas = new CaptchaRepository(db);
  }

  async create(): Promise<{ id: string; svg: string }> {
    const { text, data } = svgCaptcha.create({ size: 4, noise: 2, ignoreChars: '0oO1ilI', color: true, background: '#f4f6fb' });
    const id = randomUUID();
    const now = this.clock.now();
    await this.captchas.removeExpired(iso(now));
    await this.captchas.insert({ id, answer_hash: this.hash(text), expires_at: iso(addMs(now, CAPTCHA_TTL)) });
    return { id, svg: data };
  }

  /** Throws CAPTCHA_INVALID unless the captcha exists, is unexpired and the answer matches; uses it up either way. */
  async consume(id: string, answer: string): Promise<void> {
    const row = await this.captchas.take(id);
    const fresh = row !== undefined && row.expires_at > iso(this.clock.now());
    const right = row !== undefined && (safeEqual(this.hash(answer), row.answer_hash) || (this.testAnswer !== undefined && answer === this.testAnswer));
    if (!fresh || !right) throw new AppError('CAPTCHA_INVALID');
  }

  private hash(answer: string): string {
    return hmac(this.secret, `captcha:${answer.trim().toLowerCase()}`);
  }
}
