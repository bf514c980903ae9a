import type { FastifyInstance } from 'fastify';
import { CAPTCHA } from './test-app';

type Json = Record<string, unknown>;

export async function call(app: FastifyInstance, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, opts: { body?: Json; token?: string; lang?: string; ip?: string; headers?: Record<string, string> } = {}) {
  const res = await app.inject({
    method,
    url,
    payload: opts.body,
    remoteAddress: opts.ip ?? '127.0.0.1',
    headers: {
      ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
      ...(opts.lang ? { 'api-lang': opts.lang } : {}),
      ...opts.headers,
    },
  });
  return { status: res.statusCode, headers: res.headers, body: res.json() as Json & { data?: any; code?: string; message?: string; token?: string } };
}

export async function newCaptcha(app: FastifyInstance): Promise<string> {
  const res = await call(app, 'GET', '/api/captcha');
  return res.body.data.id as string;
}

export async function sendCode(app: FastifyInstance, email: string, purpose: string, ip?: string) {
  return call(app, 'POST', '/api/send-mail-code', { body: { email, purpose, captchaId: await newCaptcha(app), captcha: CAPTCHA }, ip });
}

export async function login(app: FastifyInstance, account: string, password: string, ip?: string) {
  return call(app, 'POST', '/api/login', { body: { account, password, captchaId: await newCaptcha(app), captcha: CAPTCHA }, ip });
}
