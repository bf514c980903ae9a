import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { notify } from '@/lib/notify';
import { createQueryClient } from '@/lib/query-client';
import { NO_LINKS, stubSiteApi as stubApi } from '@/test/site-api-stub';
import ToolboxPage from './toolbox-page';

function renderAt(path: string) {
  const router = createMemoryRouter([{ path: '/toolbox', element: <ToolboxPage /> }], { initialEntries: [path] });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

beforeEach(() => stubApi());
afterEach(() => vi.unstubAllGlobals());

describe('Toolbox guides', () => {
  it('fills the gateway host, ports and check URL from GET /api/proxy/endpoint into every snippet', async () => {
    renderAt('/toolbox?article=curl');
    await waitFor(() => expect(screen.getByTestId('article-view').textContent).toContain('gw.acme.example'));
    const code = [...screen.getByTestId('article-view').querySelectorAll('pre')].map((pre) => pre.textContent);
    expect(code).toContain('curl -x http://USERNAME:PASSWORD@gw.acme.example:9001 https://ip.acme.example/json\n');
    expect(code).toContain('curl -x socks5h://USERNAME:PASSWORD@gw.acme.example:9002 https://ip.acme.example/json\n');
    expect(screen.getByTestId('article-view').textContent).not.toMatch(/{{|GATEWAY_HOST|HTTP_PORT/);
  });

  it('lists the integration guides and opens one from the list', async () => {
    const router = renderAt('/toolbox');
    const list = await screen.findByTestId('article-list');
    expect(within(list).getAllByRole('link').map((a) => a.getAttribute('href'))).toEqual([
      '/toolbox?article=curl',
      '/toolbox?article=python-requests',
      '/toolbox?article=nodejs',
      '/toolbox?article=puppeteer-playwright',
      '/toolbox?article=browser-switchyomega',
      '/toolbox?article=proxifier-system-proxy',
    ]);
    fireEvent.click(screen.getByTestId('article-link-python-requests'));
    expect(router.state.location.search).toBe('?article=python-requests');
    await waitFor(() => expect(screen.getByTestId('article-view').textContent).toContain('GATEWAY = "gw.acme.example:9001"'));
  });

  it('shows the toolbox link card only when the operator configured one', async () => {
    renderAt('/toolbox');
    await screen.findByTestId('line-converter');
    expect(screen.queryByTestId('external-link-card')).toBeNull();
  });

  it('links to the operator\'s tools page when configured', async () => {
    stubApi({ ...NO_LINKS, toolbox: 'https://acme.example/tools' });
    renderAt('/toolbox');
    const card = await screen.findByTestId('external-link-card');
    expect(within(card).getByTestId('external-link').getAttribute('href')).toBe('https://acme.example/tools');
  });
});

describe('Proxy line converter', () => {
  it('converts pasted lines to the chosen format, lists the lines it cannot read and copies the result', async () => {
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    vi.stubGlobal('isSecureContext', true);
    renderAt('/toolbox');
    const input = await screen.findByTestId('converter-input');
    expect(screen.getByTestId('converter-copy')).toHaveProperty('disabled', true);

    fireEvent.change(input, { target: { value: 'gw.acme.example:9001:shop_1-country-us:Secret123\nnonsense\n\nshop_1:Secret123@gw.acme.example:9002' } });
    // Proxy URL is the default target.
    expect(screen.getByTestId('converter-output').textContent).toBe('http://shop_1-country-us:Secret123@gw.acme.example:9001\nsocks5h://shop_1:Secret123@gw.acme.example:9002');
    const errors = screen.getByTestId('converter-errors');
    expect(errors.textContent).toContain('Line 2:');
    expect(errors.textContent).toContain('nonsense');

    fireEvent.click(within(screen.getByTestId('converter-target')).getByText('curl command'));
    expect(screen.getByTestId('converter-output').textContent).toBe(
      'curl -x http://shop_1-country-us:Secret123@gw.acme.example:9001 https://ip.acme.example/json\ncurl -x socks5h://shop_1:Secret123@gw.acme.example:9002 https://ip.acme.example/json',
    );

    // The toast is antd's static message, rendered outside this test's tree: spied on, so none is left
    // rendering after the test environment is gone.
    const toast = vi.spyOn(notify, 'success').mockImplementation(() => undefined);
    fireEvent.click(screen.getByTestId('converter-copy'));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(screen.getByTestId('converter-output').textContent));
    await waitFor(() => expect(toast).toHaveBeenCalledWith('Lines copied: 2'));
  });
});
