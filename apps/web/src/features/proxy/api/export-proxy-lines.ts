import type { ProxyLinesQuery } from '@resi/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { saveBlob } from '@/lib/download';

/**
 * GET /api/proxy/dynamic/export?… → the lines as a text file. It is fetched with the session's bearer header
 * and saved from memory, so the token never appears in a URL. The name is the one the server suggests.
 */
export async function exportProxyLines(query: ProxyLinesQuery, username: string): Promise<void> {
  const blob = await api.blob('/proxy/dynamic/export', { ...query });
  saveBlob(blob, `proxies-${username}-${query.protocol}.txt`);
}

export function useExportProxyLines() {
  return useMutation({ mutationFn: ({ query, username }: { query: ProxyLinesQuery; username: string }) => exportProxyLines(query, username) });
}
