import type { ProxyEndpoint } from '@resi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /api/proxy/endpoint → the gateway's public host, HTTP and SOCKS5 ports, and the curl line's check URL. */
export async function getProxyEndpoint(): Promise<ProxyEndpoint> {
  return (await api.get<ProxyEndpoint>('/proxy/endpoint')).data;
}

export const proxyEndpointQueryOptions = () => queryOptions({ queryKey: ['proxy-endpoint'], queryFn: getProxyEndpoint, staleTime: Infinity });

export function useProxyEndpoint() {
  return useQuery(proxyEndpointQueryOptions());
}
