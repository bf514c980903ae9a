import type { Job } from '../../../lib/jobs/job-scheduler';
import { type NoticeDeps, ProviderNotices } from './provider-notices';
import { type ProberDeps, ProviderProber } from './provider-prober';

/** How often the job looks for due probes and notices; a provider's own pace is `probeSeconds` or its retry pause. */
export const PROBE_JOB_EVERY_MS = 5_000;

export type ProviderJobDeps = ProberDeps & NoticeDeps;

/**
 * The providers' background job (docs/gateway.md#active-probes): probe what is due, then mail admins what
 * changed. Leased (lib/jobs): one API process runs it at a time. The providers' plugin adds it:
 * `for (const job of providerJobs(deps)) app.jobs.add(job);`.
 */
export function providerJobs(deps: ProviderJobDeps): Job[] {
  const prober = new ProviderProber(deps);
  const notices = new ProviderNotices(deps);
  return [
    {
      name: 'provider_probes',
      everyMs: PROBE_JOB_EVERY_MS,
      run: async () => {
        try {
          await prober.runDue();
        } finally {
          // A probe run that failed (the store away) still lets the notices of what the gateways changed go out.
          await notices.send();
        }
      },
    },
  ];
}
