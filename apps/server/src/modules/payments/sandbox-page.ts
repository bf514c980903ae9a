import { emptyBody, type Lang, normalizeLang, type PayMethod } from '@resi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../shared/errors';
import { translator } from '../../shared/i18n';
import type { PaymentProvider } from '../../payments/provider';
import type { Fulfilment } from '../orders/fulfilment';
import type { OrderRow } from '../../db/rows';
import type { OrderService } from '../orders/order-service';

interface Deps {
  orders: OrderService;
  fulfilment: Fulfilment;
  providers: Map<PayMethod, PaymentProvider>;
  production: boolean;
}

const params = z.strictObject({ orderNo: z.string().regex(/^[A-Z0-9]{8,40}$/) });
const query = z.object({ lang: z.string().optional() });

/**
 * The sandbox's "payment provider": a plain page of ours with Pay and Fail buttons. Public because a
 * real provider's page is too; the order number is the only key, which is acceptable for demo money
 * and is why the whole thing is refused in production.
 */
export const sandboxRoutes: FastifyPluginAsyncZod<Deps> = async (app, { orders, fulfilment, providers, production }) => {
  // The buttons are plain HTML forms; their (empty) bodies carry nothing we read.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, _body, done) => done(null, {}));
  const config = { access: 'public' as const };
  const schema = { tags: ['payments'], params, querystring: query, hide: true };
  // The form parser above turns the buttons' bodies into {}; anything else sent is refused like elsewhere.
  const postSchema = { ...schema, body: emptyBody };

  const load = async (orderNo: string): Promise<OrderRow> => {
    if (production || !providers.get('sandbox')?.available(production)) throw new AppError('NOT_FOUND');
    const order = await orders.findForPage(orderNo);
    if (!order || order.pay_method !== 'sandbox') throw new AppError('NOT_FOUND');
    return order;
  };

  app.get('/pay/sandbox/:orderNo', { config, schema }, async (request, reply) => {
    const lang = normalizeLang(request.query.lang);
    const order = await load(request.params.orderNo);
    return reply.type('text/html; charset=utf-8').send(page(order, lang, null));
  });

  app.post('/pay/sandbox/:orderNo/pay', { config, schema: postSchema }, async (request, reply) => {
    const lang = normalizeLang(request.query.lang);
    const order = await load(request.params.orderNo);
    await fulfilment.recordEvent({
      provider: 'sandbox',
      eventId: `sandbox-${order.order_no}`,
      orderNo: order.order_no,
      amount: Number(order.pay_amount),
      currency: order.pay_currency ?? order.currency,
      display: String(order.pay_amount),
      by: 'sandbox',
    });
    return reply.type('text/html; charset=utf-8').send(page((await orders.findForPage(order.order_no))!, lang, 'paid'));
  });

  app.post('/pay/sandbox/:orderNo/fail', { config, schema: postSchema }, async (request, reply) => {
    const lang = normalizeLang(request.query.lang);
    const order = await load(request.params.orderNo);
    await orders.cancel(order.order_no);
    return reply.type('text/html; charset=utf-8').send(page((await orders.findForPage(order.order_no))!, lang, 'failed'));
  });
};

function page(order: OrderRow, lang: Lang, action: 'paid' | 'failed' | null): string {
  const t = translator(lang);
  const amount = new Intl.NumberFormat(lang === 'en' ? 'en-US' : lang === 'zh' ? 'zh-TW' : 'zh-CN', { style: 'currency', currency: order.currency }).format(
    Number(order.amount) / 100,
  );
  const status = t(`sandbox.status.${order.status}`);
  const q = `?lang=${encodeURIComponent(lang)}`;
  const buttons =
    order.status === 'pending'
      ? `<form method="post" action="${esc(order.order_no)}/pay${q}"><button class="pay" type="submit" data-testid="sandbox-pay">${esc(t('sandbox.pay'))}</button></form>
         <form method="post" action="${esc(order.order_no)}/fail${q}"><button class="fail" type="submit" data-testid="sandbox-fail">${esc(t('sandbox.fail'))}</button></form>`
      : `<p class="done" data-testid="sandbox-result">${esc(action === 'paid' && order.status === 'paid' ? t('sandbox.paidClose') : status)}</p>`;
  return `<!doctype html>
<html lang="${esc(lang)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(t('sandbox.title'))}</title>
<style>
body{font-family:system-ui,-apple-system,"Segoe UI","PingFang SC","Microsoft YaHei",sans-serif;background:#f3f5fb;margin:0;display:flex;min-height:100vh;align-items:center;justify-content:center;color:#0f172a}
main{background:#fff;border-radius:16px;box-shadow:0 10px 30px rgba(15,23,42,.08);padding:32px 36px;width:min(420px,90vw)}
h1{font-size:20px;margin:0 0 4px}.demo{color:#b45309;background:#fef3c7;border-radius:8px;padding:8px 12px;font-size:13px;margin:12px 0 20px}
dl{display:grid;grid-template-columns:auto 1fr;gap:8px 16px;margin:0 0 24px}dt{color:#64748b}dd{margin:0;font-weight:600}
form{display:inline}button{font-size:15px;border:0;border-radius:8px;padding:10px 22px;cursor:pointer;margin-right:10px}
.pay{background:#1d4ed8;color:#fff}.fail{background:#e2e8f0;color:#0f172a}.done{font-weight:600;color:#15803d}
</style></head>
<body><main>
<h1>${esc(t('sandbox.title'))}</h1>
<div class="demo">${esc(t('sandbox.demoNotice'))}</div>
<dl><dt>${esc(t('sandbox.orderNo'))}</dt><dd data-testid="sandbox-order">${esc(order.order_no)}</dd>
<dt>${esc(t('sandbox.amount'))}</dt><dd>${esc(amount)}</dd>
<dt>${esc(t('sandbox.statusLabel'))}</dt><dd data-testid="sandbox-status">${esc(status)}</dd></dl>
${buttons}
</main></body></html>`;
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
