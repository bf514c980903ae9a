import type { FastifyPluginAsync } from 'fastify';
import type { ModuleDeps } from '../module-deps';
import { AlertService } from './alert-service';
import { alertRoutes } from './routes';

/** Usage alerts and notices, and the job that finds crossings (docs/business-rules.md#usage-alerts). */
export const alertsModule: FastifyPluginAsync<ModuleDeps> = async (app, { config, db, clock, mailer }) => {
  const alerts = new AlertService({ db, clock, mailer, appName: config.APP_NAME, webhooks: app.webhooks, log: app.log });
  app.jobs.add({ name: 'usage_alerts', everyMs: config.ALERT_CHECK_SECONDS * 1000, run: () => alerts.check() });
  await app.register(alertRoutes, { alerts });
};
