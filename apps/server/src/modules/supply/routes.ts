import { emptyBody, envelope, errorBody, idParams, supplySettings, upstreamBody, upstreamDto } from '@resi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../db/schema';
import { assertTemplate } from '../../gateway/provider-template';
import { currentAuth } from '../../shared/request-context';
import { AppError } from '../../shared/errors';
import type { AuditLog } from '../audit/audit-log';
import type { SupplyRepository } from './supply-repository';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody };

/** Admin: the upstream proxies rotating traffic exits through, and the gateway's supply settings. */
export const supplyRoutes: FastifyPluginAsyncZod<{ db: Kysely<Database>; supply: SupplyRepository; audit: AuditLog; production: boolean }> = async (
  app,
  { db, supply, audit, production },
) => {
  const config = { access: 'admin' as const };
  const tags = ['admin', 'supply'];

  app.get('/manage/upstream', { config, schema: { tags, response: { 200: envelope(z.object({ items: z.array(upstreamDto) })), ...errors } } }, async () => ({
    data: { items: await supply.list() },
  }));

  app.post('/manage/upstream', { config, schema: { tags, body: upstreamBody, response: { 200: envelope(upstreamDto), ...errors } } }, async (request) => {
    // The audit row carries the masked view only, never an upstream password; it commits with the change.
    const created = await db.transaction().execute(async (trx) => {
      const row = await supply.create(request.body, trx);
      await audit.write(trx, { actorId: currentAuth(request).user.id, action: 'upstream.create', target: `upstream:${row.id}`, after: row, ip: request.ip });
      return row;
    });
    return { data: created, message: request.t('messages.saved') };
  });

  app.put('/manage/upstream/:id', { config, schema: { tags, params: idParams, body: upstreamBody, response: { 200: envelope(upstreamDto), ...errors } } }, async (request) => {
    const after = await db.transaction().execute(async (trx) => {
      const before = await supply.find(request.params.id, trx);
      const row = await supply.update(request.params.id, request.body, trx);
      await audit.write(trx, {
        actorId: currentAuth(request).user.id,
        action: 'upstream.update',
        target: `upstream:${row.id}`,
        before: before ? supply.toDto(before) : undefined,
        after: row,
        ip: request.ip,
      });
      return row;
    });
    return { data: after, message: request.t('messages.saved') };
  });

  app.delete('/manage/upstream/:id', { config, schema: { tags, params: idParams, body: emptyBody, response: { 200: envelope(z.null()), ...errors } } }, async (request) => {
    await db.transaction().execute(async (trx) => {
      const gone = await supply.remove(request.params.id, trx);
      await audit.write(trx, { actorId: currentAuth(request).user.id, action: 'upstream.delete', target: `upstream:${gone.id}`, before: supply.toDto(gone), ip: request.ip });
    });
    return { data: null, message: request.t('messages.deleted') };
  });

  // The template's password is shown masked; saving the masked form back keeps the stored password.
  // In production direct egress is off whatever is stored (the gateway ignores it too): show what is in force.
  app.get('/manage/supply', { config, schema: { tags, response: { 200: envelope(supplySettings), ...errors } } }, async () => ({
    data: redactTemplate(inForce(await supply.settings(), production)),
  }));

  app.post('/manage/supply', { config, schema: { tags, body: supplySettings, response: { 200: envelope(supplySettings), ...errors } } }, async (request) => {
    const before = await supply.settings();
    // Direct egress is the demo's exit (the gateway host's own address, any region): never in production.
    if (production && request.body.directEgress) throw new AppError('DIRECT_EGRESS_UNAVAILABLE');
    const next = { ...request.body, template: keepMaskedPassword(request.body.template, before.template) };
    if (next.template) {
      try {
        assertTemplate(next.template);
      } catch {
        throw new AppError('VALIDATION_FAILED', { detail: request.t('validation.template') });
      }
    }
    await db.transaction().execute(async (trx) => {
      await supply.saveSettings(next, trx);
      await audit.write(trx, { actorId: currentAuth(request).user.id, action: 'supply.save', target: 'supply', before: redactTemplate(before), after: redactTemplate(next), ip: request.ip });
    });
    return { data: redactTemplate(next), message: request.t('messages.saved') };
  });
};

function inForce<T extends { directEgress: boolean }>(s: T, production: boolean): T {
  return production ? { ...s, directEgress: false } : s;
}

const CREDENTIALS = /:\/\/([^:@/]*):([^@/]*)@/;
const MASK = '****';

/** A provider template holds the provider's password: answers and audit rows carry only its shape. */
function redactTemplate(s: { template: string; directEgress: boolean }) {
  return { directEgress: s.directEgress, template: s.template.replace(CREDENTIALS, `://$1:${MASK}@`) };
}

function keepMaskedPassword(next: string, stored: string): string {
  const m = CREDENTIALS.exec(next);
  if (m?.[2] !== MASK) return next;
  const old = CREDENTIALS.exec(stored)?.[2] ?? '';
  return next.replace(CREDENTIALS, `://$1:${old}@`);
}
