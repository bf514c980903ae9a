import type { WebhookDeliveryDto, WebhookDto } from '@resi/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
import { storage } from '@/lib/storage';
import { WebhooksCard } from './webhooks-card';

const SECRET = 'whsec_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG';

const hook: WebhookDto = { id: 1, url: 'https://hooks.example.com/resi', events: ['order.paid', 'balance.empty'], enabled: true, createdAt: '2026-01-01T00:00:00Z' };
const delivery = (id: number, patch: Partial<WebhookDeliveryDto> = {}): WebhookDeliveryDto => ({
  id,
  webhookId: 1,
  event: 'order.paid',
  eventId: 'evt-1',
  status: 'failed',
  attempts: 30,
  nextAttemptAt: null,
  lastStatusCode: 503,
  lastResponse: 'busy, try later',
  lastError: null,
  body: '{"id":"evt-1","type":"order.paid"}',
  replayOf: null,
  createdAt: '2026-01-02T00:00:00Z',
  deliveredAt: null,
  ...patch,
});

let hooks: WebhookDto[];
let deliveries: WebhookDeliveryDto[];
const calls: { method: string; path: string; query: string; body: unknown }[] = [];

beforeEach(() => {
  hooks = [hook];
  deliveries = [delivery(7)];
  calls.length = 0;
  storage.setToken('session-token');
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = new URL(String(input), 'http://console.test');
      const path = url.pathname;
      const method = init?.method ?? 'GET';
      calls.push({ method, path, query: url.search, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      if (path === '/api/user/webhooks' && method === 'GET') return Response.json({ data: { items: hooks } });
      if (path === '/api/user/webhooks' && method === 'POST') {
        const body = JSON.parse(String(init?.body)) as Pick<WebhookDto, 'url' | 'events'>;
        const made: WebhookDto = { ...hook, id: 2, ...body };
        hooks = [made, ...hooks];
        return Response.json({ data: { ...made, secret: SECRET }, message: 'Saved (test).' });
      }
      const one = /^\/api\/user\/webhooks\/(\d+)$/.exec(path);
      if (one && method === 'DELETE') {
        hooks = hooks.filter((w) => w.id !== Number(one[1]));
        return Response.json({ data: null, message: 'Deleted (test).' });
      }
      if (one && method === 'PUT') {
        hooks = hooks.map((w) => (w.id === Number(one[1]) ? { ...w, ...(JSON.parse(String(init?.body)) as Partial<WebhookDto>) } : w));
        return Response.json({ data: hooks[0], message: 'Saved (test).' });
      }
      if (path === '/api/user/webhooks/1/deliveries') {
        const status = url.searchParams.get('status');
        const items = deliveries.filter((d) => !status || d.status === status);
        return Response.json({ data: { items, total: items.length, page: 1, pageSize: 20 } });
      }
      const replay = /^\/api\/user\/webhooks\/1\/deliveries\/(\d+)\/replay$/.exec(path);
      if (replay && method === 'POST') {
        const made = delivery(8, { status: 'delivered', attempts: 1, lastStatusCode: 200, lastResponse: 'ok', replayOf: Number(replay[1]), createdAt: '2026-01-03T00:00:00Z' });
        deliveries = [made, ...deliveries];
        return Response.json({ data: made });
      }
      return Response.json({ code: 'NOT_FOUND', message: path }, { status: 404 });
    }),
  );
});

function show() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <App>
        <WebhooksCard />
      </App>
    </QueryClientProvider>,
  );
}

const sent = (method: string) => calls.filter((c) => c.method === method).map(({ path, body }) => ({ path, body }));

// The form and the delivery log are lazy chunks: seconds on a loaded 2-core machine. A budget, not a wait.
describe('webhooks on Personal info', { timeout: 30_000 }, () => {
  it('lists an endpoint with its URL, events and switch; the switch sends enabled alone', async () => {
    show();
    const row = (await screen.findByText(hook.url)).closest('tr') as HTMLElement;
    expect(within(row).getByTestId('webhook-events').textContent).toBe('order.paidbalance.empty');
    expect(screen.getByTestId('webhooks-count').textContent).toBe('1 of 10 endpoints in use.');
    fireEvent.click(within(row).getByTestId('webhook-enabled'));
    await waitFor(() => expect(sent('PUT')).toEqual([{ path: '/api/user/webhooks/1', body: { enabled: false } }]));
  });

  it('says so when there is none', async () => {
    hooks = [];
    show();
    expect(await screen.findByText('You have no webhook endpoint yet.')).toBeTruthy();
  });

  it('adds an endpoint with the events ticked, and shows its secret once with how to verify', async () => {
    show();
    await screen.findByText(hook.url);
    fireEvent.click(screen.getByTestId('webhook-create'));
    fireEvent.change(await screen.findByTestId('webhook-url-input'), { target: { value: ' https://example.net/in ' } });
    fireEvent.click(screen.getByTestId('webhook-create-submit'));
    expect(await screen.findByText(/Choose at least one of the events/)).toBeTruthy();
    fireEvent.click(screen.getByTestId('webhook-event-order.paid'));
    fireEvent.click(screen.getByTestId('webhook-event-static.expiring'));
    fireEvent.click(screen.getByTestId('webhook-create-submit'));
    await waitFor(() => expect(sent('POST')).toEqual([{ path: '/api/user/webhooks', body: { url: 'https://example.net/in', events: ['order.paid', 'static.expiring'] } }]));

    expect((await screen.findByTestId('webhook-secret-value')).textContent).toContain(SECRET);
    const dialog = screen.getByTestId('webhook-secret');
    expect(within(dialog).getByText(/X-Resi-Timestamp \(Unix seconds\) and X-Resi-Signature/)).toBeTruthy();
    expect(screen.getByTestId('webhook-secret-formula').textContent).toBe('X-Resi-Signature = "v1=" + hex(HMAC-SHA256(secret, X-Resi-Timestamp + "." + body))');
    fireEvent.click(screen.getByTestId('webhook-secret-done'));
    await waitFor(() => expect(screen.queryByText(SECRET, { exact: false })).toBeNull());
    expect(await screen.findByText('https://example.net/in')).toBeTruthy();
  });

  it('deletes an endpoint after the confirmation', async () => {
    show();
    const row = (await screen.findByText(hook.url)).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByTestId('webhook-delete'));
    fireEvent.click(await screen.findByTestId('webhook-delete-ok'));
    await waitFor(() => expect(sent('DELETE')).toEqual([{ path: '/api/user/webhooks/1', body: {} }]));
    expect(await screen.findByText('You have no webhook endpoint yet.')).toBeTruthy();
  });

  it('opens the deliveries: a row shows the body and the answer; Replay sends it again and the list shows the new one', async () => {
    show();
    const row = (await screen.findByText(hook.url)).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByTestId('webhook-deliveries'));
    const drawer = await screen.findByTestId('webhook-deliveries-drawer');
    await waitFor(() => expect(within(drawer).getAllByTestId('delivery-status').map((el) => el.textContent)).toEqual(['Failed']));
    expect(within(drawer).getByTestId('delivery-code').textContent).toBe('503');

    fireEvent.click(drawer.querySelector('.ant-table-row-expand-icon') as HTMLElement);
    const detail = await within(drawer).findByTestId('delivery-detail');
    expect(detail.textContent).toContain('{"id":"evt-1","type":"order.paid"}');
    expect(detail.textContent).toContain("Receiver's answer");
    expect(detail.textContent).toContain('busy, try later');

    fireEvent.click(within(drawer).getByTestId('delivery-replay'));
    await waitFor(() => expect(sent('POST')).toEqual([{ path: '/api/user/webhooks/1/deliveries/7/replay', body: {} }]));
    await waitFor(() => expect(within(drawer).getAllByTestId('delivery-status').map((el) => el.textContent)).toEqual(['Delivered', 'Failed']));
    expect(within(drawer).getByText('Replay of #7')).toBeTruthy();
  });

  it('filters the deliveries by status, asking the server', async () => {
    deliveries = [delivery(7), delivery(6, { status: 'delivered', lastStatusCode: 200 })];
    show();
    fireEvent.click(within((await screen.findByText(hook.url)).closest('tr') as HTMLElement).getByTestId('webhook-deliveries'));
    const drawer = await screen.findByTestId('webhook-deliveries-drawer');
    await waitFor(() => expect(within(drawer).getAllByTestId('delivery-status')).toHaveLength(2));
    fireEvent.click(within(drawer).getByText('Delivered', { selector: '.ant-radio-button-label, .ant-radio-button-wrapper span' }));
    await waitFor(() => expect(within(drawer).getAllByTestId('delivery-status').map((el) => el.textContent)).toEqual(['Delivered']));
    expect(calls.some((c) => c.path === '/api/user/webhooks/1/deliveries' && c.query.includes('status=delivered'))).toBe(true);
  });
});
