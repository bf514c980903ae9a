import type { SupplySettings } from '@resi/contract';
import type { SupplyProvider } from '../../modules/providers/provider-repository';
import type { ExitSupply } from '../upstream-exit-chooser';

/**
 * What the exit chooser gets from the stored supply: the enabled providers, and direct egress. Direct egress
 * is the embedded demo's exit: it serves every request nothing else serves, whatever region it names (the exit
 * is the gateway host, so the region is not honoured — docs/gateway.md and the admin supply page say so), so
 * the lines Get Proxy generates for the demo's regions work as shown. In production it is never on, whatever
 * is stored (the API refuses to turn it on there; a store copied from a demo may still hold it).
 */
export function chooserSupply(providers: SupplyProvider[], settings: SupplySettings, production: boolean): ExitSupply {
  const direct = settings.directEgress && !production;
  return { providers, direct, directServesRegions: direct };
}
