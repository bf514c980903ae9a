import { type Lang, type PayMethod } from '@resi/contract';
import type { FastifyInstance } from 'fastify';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { translator } from '../../shared/i18n';

export interface LegalPagesDeps {
  /** The built console; its `legal/` folder holds the pages' templates (apps/web/public/legal). */
  webDist: string | null;
  appName: string;
  /** Who runs the service, as the terms and the privacy notice name it (OPERATOR_NAME, else APP_NAME). */
  operatorName: string;
  /** How to reach the operator (OPERATOR_CONTACT): an email address becomes a mail link. */
  contact: string | null;
  supportUrl: string | null;
  /** What checkout offers right now: the tutorial names only these. */
  payMethods: () => Promise<PayMethod[]>;
}

const PAGE = /^(terms|privacy|tutorial)\.(en|zh-cn|zh)\.html$/;
const EMAIL = /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/;
const INTL: Record<Lang, string> = { en: 'en', 'zh-cn': 'zh-CN', zh: 'zh-TW' };

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const link = (href: string, text: string) => `<a href="${escapeHtml(href)}">${escapeHtml(text)}</a>`;

/**
 * The tutorial, terms and privacy notice (`/manage/legal/<page>.<lang>.html`), filled in from the operator's
 * settings as they are served: who runs the service and how to reach them, the support link, and the payment
 * methods checkout offers now. Written once as static pages, they named USDT, AliPay and card while only the
 * sandbox was on, and no operator at all. A template's `{{name}}` is one of the values below; the pages stay
 * plain HTML outside the console, readable before signing in.
 */
export async function registerLegalPages(app: FastifyInstance, deps: LegalPagesDeps): Promise<void> {
  const folder = deps.webDist ? path.join(deps.webDist, 'legal') : null;
  if (!folder || !existsSync(folder)) return;
  const templates = new Map<string, Promise<string>>();

  const values = async (lang: Lang): Promise<Record<string, string>> => {
    const t = translator(lang);
    const contact = deps.contact ? (EMAIL.test(deps.contact) ? link(`mailto:${deps.contact}`, deps.contact) : escapeHtml(deps.contact)) : null;
    const reach = contact ?? (deps.supportUrl ? link(deps.supportUrl, deps.supportUrl) : escapeHtml(t('legal.noContact')));
    const methods = (await deps.payMethods()).map((m) => t(`words.payMethod.${m}`));
    return {
      appName: escapeHtml(deps.appName),
      operator: escapeHtml(deps.operatorName),
      contact: reach,
      support: deps.supportUrl ? link(deps.supportUrl, t('legal.supportLink')) : reach,
      payMethods: methods.length ? escapeHtml(new Intl.ListFormat(INTL[lang], { type: 'conjunction' }).format(methods)) : escapeHtml(t('legal.noPayMethods')),
    };
  };

  app.get('/manage/legal/:file', { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
    const file = (request.params as { file: string }).file;
    const page = PAGE.exec(file);
    if (!page) return reply.callNotFound();
    let template = templates.get(file);
    if (!template) templates.set(file, (template = readFile(path.join(folder, file), 'utf8')));
    const filled = await values(page[2] as Lang);
    const html = (await template).replace(/{{(\w+)}}/g, (whole, name: string) => filled[name] ?? whole);
    // Settings and enabled methods change without a deploy: never kept by a cache.
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html);
  });
}
