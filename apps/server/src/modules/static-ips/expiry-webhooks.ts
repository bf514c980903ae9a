import { type Clock, DAY, addMs, iso } from '../../lib/clock';
import type { Job } from '../../lib/jobs/job-scheduler';
import type { WebhookEmitter } from '../webhooks/webhook-service';
import type { StaticAllocationRepository } from './allocation-repository';

/** Customers with many subscribers are asked about in slices, so one query never names thousands of users. */
const USERS_PER_QUERY = 500;

/**
 * The `static.expiring` webhook (docs/api.md#webhooks): a customer's static IP whose expiry is
 * WEBHOOK_STATIC_EXPIRING_DAYS away or less is reported once per IP and expiry. A renewal moves the expiry,
 * so the renewed IP is reported again when its new expiry comes near. Only customers with an endpoint for
 * the event are looked at; the once-only key is written with the event, in one transaction.
 */
export class StaticExpiryWebhooks {
  constructor(
    private readonly clock: Clock,
    private readonly allocations: StaticAllocationRepository,
    private readonly webhooks: WebhookEmitter,
    private readonly days: number,
  ) {}

  job(): Job {
    // Hourly: an IP comes into the window at most an hour before it is reported.
    return { name: 'static_expiring_webhooks', everyMs: 60 * 60_000, run: () => this.run() };
  }

  async run(): Promise<number> {
    const users = await this.webhooks.subscribers('static.expiring');
    const now = this.clock.now();
    let sent = 0;
    for (let i = 0; i < users.length; i += USERS_PER_QUERY) {
      const soon = await this.allocations.expiringFor(users.slice(i, i + USERS_PER_QUERY), iso(now), iso(addMs(now, this.days * DAY)));
      for (const a of soon) {
        const daysLeft = Math.max(0, Math.ceil((Date.parse(a.expires_at) - now.getTime()) / DAY));
        const data = { id: a.id, ip: a.exit_ip, country: a.country, city: a.city, region: a.region_en, expiresAt: a.expires_at, daysLeft };
        if ((await this.webhooks.emitOnce(`static.expiring:${a.id}:${a.expires_at}`, a.user_id, 'static.expiring', data)) > 0) sent += 1;
      }
    }
    return sent;
  }
}
