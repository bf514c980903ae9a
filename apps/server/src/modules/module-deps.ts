import type { Kysely } from 'kysely';
import type { Config } from '../config';
import type { Database } from '../db/schema';
import type { Clock } from '../lib/clock';
import type { CutoffBus } from '../lib/cutoff-bus';
import type { Mailer } from '../mail/mailer';

/**
 * What http/app.ts hands every module plugin: the shared store, clock, mailer and cut-off bus, and the
 * settings. A module builds its own repositories and services from these (docs/architecture.md).
 */
export interface ModuleDeps {
  config: Config;
  db: Kysely<Database>;
  /** The store's change counter where it has one (db/database.ts): what in-process caches of rows check. */
  storeVersion?: () => number;
  clock: Clock;
  mailer: Mailer;
  /** Where proxy-account cut-offs are announced to the gateways (main.ts: in-process or Redis). */
  cutoffs?: CutoffBus;
  /** This is the demo (`isDemo`, config.ts): the sandbox's pretend money counts as money. */
  demo: boolean;
}
