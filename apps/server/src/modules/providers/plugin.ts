import type { FastifyPluginAsync } from 'fastify';
import { SEAL_LABELS, SealedBox } from '../../lib/sealed-box';
import { AuditLogRepository } from '../audit/audit-log-repository';
import type { ModuleDeps } from '../module-deps';
import { providerJobs } from './probe/provider-jobs';
import { ProviderRepository } from './provider-repository';
import { providerRoutes } from './provider-routes';
import { ProviderService } from './provider-service';
import { SupplySettingsRepository } from './supply-settings-repository';

export const providersModule: FastifyPluginAsync<ModuleDeps> = async (app, { config, db, clock, mailer }) => {
  const repository = new ProviderRepository(db, clock, new SealedBox(config.APP_SECRET, SEAL_LABELS.upstreamPassword), config.CURRENCY);
  const settings = new SupplySettingsRepository(db, clock);
  const service = new ProviderService(db, repository, settings, new AuditLogRepository(db, clock), config.CURRENCY);
  for (const job of providerJobs({ db, clock, mailer, providers: repository, settings, appName: config.APP_NAME, log: app.log })) app.jobs.add(job);
  await app.register(providerRoutes, { providers: service, production: config.NODE_ENV === 'production' });
};
