import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
import { storage } from '@/lib/storage';
import { ApiLinkCard } from './api-link-card';

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  storage.setToken('session-token');
});
afterEach(() => vi.unstubAllGlobals());

const urlOf = (input: Parameters<typeof fetch>[0]) => (typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);

function show() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ApiLinkCard owner={{ accountId: 7 }} prefix={null} region={['us']} life={30} />
    </QueryClientProvider>,
  );
}

describe('ApiLinkCard', () => {
  it('shows the link once the key is made, and the answer of "Try it"', async () => {
    fetchMock.mockImplementation(async (input) => {
      const url = urlOf(input);
      if (url.endsWith('/api/proxy/dynamic/7/extract-key')) return Response.json({ data: { key: 'ek_0123456789abcdef0123456789abcdef' }, message: 'Saved.' });
      if (url.includes('/api/extract?')) return new Response('gw.example:10001\r\ngw.example:10002', { headers: { 'content-type': 'text/plain' } });
      return Response.json({ data: { items: [] } });
    });
    show();
    expect(screen.getByTestId('api-link-no-url').textContent).toBe('Create a key to get the link.');
    fireEvent.click(screen.getByTestId('api-link-key'));
    await waitFor(() => expect(screen.getByTestId('api-link-url').textContent).toContain('/api/extract?key=ek_0123456789abcdef0123456789abcdef&num=10&country=us&life=30'));
    fireEvent.click(screen.getByTestId('api-link-try'));
    await waitFor(() => expect(screen.getByTestId('api-link-answer').textContent).toBe('gw.example:10001\ngw.example:10002'));
  });

  it("a refused link shows the server's message and leaves this tab's session alone (its 401 is about the key)", async () => {
    fetchMock.mockImplementation(async (input) => {
      const url = urlOf(input);
      if (url.endsWith('/extract-key')) return Response.json({ data: { key: 'ek_ffffffffffffffffffffffffffffffff' } });
      if (url.includes('/api/extract?')) return Response.json({ code: 'EXTRACT_KEY_INVALID', message: 'This extraction key is not valid.' }, { status: 401 });
      return Response.json({ data: { items: [] } });
    });
    show();
    fireEvent.click(screen.getByTestId('api-link-key'));
    await waitFor(() => expect(screen.getByTestId('api-link-try')).toBeTruthy());
    fireEvent.click(screen.getByTestId('api-link-try'));
    await waitFor(() => expect(screen.getByTestId('api-link-refused').textContent).toContain('This extraction key is not valid.'));
    expect(storage.getToken()).toBe('session-token');
  });
});
