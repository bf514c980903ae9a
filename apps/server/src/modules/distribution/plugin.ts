import type { FastifyPluginAsync } from 'fastify';
import { UserAdminRepository } from '../admin/user-admin-repository';
import { AuditLogRepository } from '../audit/audit-log-repository';
import { UserRepository } from '../auth/user-repository';
import type { ModuleDeps } from '../module-deps';
import { CommissionRepository } from './commission-repository';
import { CommissionService } from './commission-service';
import { DistributionRepository } from './distribution-repository';
import { PayoffRepository } from './payoff-repository';
import { PayoffService } from './payoff-service';
import { ReferralService } from './referral-service';
import { distributionRoutes } from './routes';
import { DistributionSettingsService } from './settings-service';

/**
 * Distribution (docs/business-rules.md#distribution): the commission ledger is written from the orders
 * module's paying and refunding transactions, through the hooks this plugin registers on them.
 */
export const distributionModule: FastifyPluginAsync<ModuleDeps> = async (app, { config, db, clock, cutoffs, demo }) => {
  const users = new UserRepository(db);
  const audit = new AuditLogRepository(db, clock);
  const distribution = new DistributionRepository(db, config.CURRENCY);
  const payoffs = new PayoffRepository(db);
  const ledger = new CommissionRepository(db);
  const commission = new CommissionService(users, ledger, distribution, demo);
  app.orders.fulfilment.onPaid((trx, order, now) => commission.onPaid(trx, order, now));
  app.orders.refunds.onRefund({
    preview: (order, now) => commission.previewRefund(order, now),
    apply: async (trx, order, now) => ({ taken: await commission.onRefund(trx, order, now), cutoffs: [] }),
  });
  await app.register(distributionRoutes, {
    clock,
    currency: config.CURRENCY,
    publicUrl: config.PUBLIC_URL,
    distribution,
    commission,
    ledger,
    payoffs,
    payoffService: new PayoffService(db, clock, payoffs, commission, distribution, audit, config.CURRENCY),
    referrals: new ReferralService(db, clock, users, new UserAdminRepository(db), audit, cutoffs),
    users,
    settings: new DistributionSettingsService(db, clock, distribution, audit),
    visitorKey: `${config.APP_SECRET}:channel-visit`,
  });
};
