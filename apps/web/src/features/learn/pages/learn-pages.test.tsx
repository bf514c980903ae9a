import { QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ComponentType } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
import { NO_LINKS, stubSiteApi as stubApi } from '@/test/site-api-stub';
import BlogPage from './blog-page';
import FaqPage from './faq-page';
import KnowledgeBasePage from './knowledge-base-page';


function renderPage(Page: ComponentType, path: string) {
  const router = createMemoryRouter([{ path: path.split('?')[0], element: <Page /> }], { initialEntries: [path] });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

// jsdom has no scrollIntoView; Chromium's returns a Promise, which an effect must not hand back to React.
beforeEach(() => {
  stubApi();
  Element.prototype.scrollIntoView = vi.fn(() => Promise.resolve()) as unknown as Element['scrollIntoView'];
});
afterEach(() => {
  vi.unstubAllGlobals();
  delete (Element.prototype as Partial<Element>).scrollIntoView;
});

describe('Knowledge base', () => {
  it('lists the articles, opens one with ?article=, and back and forward move between list and article', async () => {
    const router = renderPage(KnowledgeBasePage, '/learn/knowledge');
    const link = await screen.findByTestId('article-link-getting-started');
    expect(link.textContent).toContain('Getting started: from purchase to your first request');
    // In list order, each with its summary.
    const titles = within(screen.getByTestId('article-list')).getAllByRole('link').map((a) => a.getAttribute('href'));
    expect(titles).toEqual([
      '/learn/knowledge?article=getting-started',
      '/learn/knowledge?article=username-parameters',
      '/learn/knowledge?article=rotating-and-sticky',
      '/learn/knowledge?article=traffic-and-refusals',
    ]);

    fireEvent.click(link);
    expect(router.state.location.search).toBe('?article=getting-started');
    expect((await screen.findByTestId('article-title')).textContent).toBe('Getting started: from purchase to your first request');
    expect(screen.queryByTestId('article-list')).toBeNull();
    // The gateway's address is filled into the commands.
    await waitFor(() => expect(screen.getByTestId('article-view').textContent).toContain('curl -x http://USERNAME:PASSWORD@gw.acme.example:9001 https://ip.acme.example/json'));
    expect(screen.getByTestId('article-view').textContent).not.toContain('{{');

    await act(() => router.navigate(-1));
    expect(await screen.findByTestId('article-list')).toBeTruthy();
    expect(screen.queryByTestId('article-view')).toBeNull();

    await act(() => router.navigate(1));
    expect((await screen.findByTestId('article-title')).textContent).toBe('Getting started: from purchase to your first request');

    fireEvent.click(screen.getByTestId('article-back'));
    expect(router.state.location.search).toBe('');
    expect(await screen.findByTestId('article-list')).toBeTruthy();
  });

  it('opens a deep link directly; links to other articles stay in the console', async () => {
    renderPage(KnowledgeBasePage, '/learn/knowledge?article=traffic-and-refusals');
    expect((await screen.findByTestId('article-title')).textContent).toBe('Traffic, limits and refusals');
    const view = screen.getByTestId('article-view');
    const inner = within(view).getByRole('link', { name: 'Username parameters' });
    expect(inner.getAttribute('href')).toBe('/learn/knowledge?article=username-parameters');
    expect(inner.getAttribute('target')).toBeNull();
    // The tables render (GFM).
    expect(within(view).getAllByRole('table').length).toBeGreaterThan(0);
    expect(within(view).getByRole('cell', { name: 'NO_TRAFFIC' })).toBeTruthy();
  });

  it('says so when ?article= names no article, with a way back to the list', async () => {
    const router = renderPage(KnowledgeBasePage, '/learn/knowledge?article=no-such-thing');
    const state = await screen.findByTestId('article-not-found');
    expect(state.textContent).toContain('Article not found');
    expect(state.textContent).toContain('no-such-thing');
    fireEvent.click(screen.getByTestId('article-not-found-back'));
    expect(router.state.location.search).toBe('');
    expect(await screen.findByTestId('article-list')).toBeTruthy();
  });

  it('shows the "More on our site" card only when the operator configured a knowledge base URL', async () => {
    renderPage(KnowledgeBasePage, '/learn/knowledge');
    await screen.findByTestId('article-list');
    await waitFor(() => expect(vi.mocked(fetch)).toHaveBeenCalledWith('/api/site', expect.anything()));
    expect(screen.queryByTestId('external-link-card')).toBeNull();
  });

  it('links to the operator\'s knowledge base in a new tab when configured', async () => {
    stubApi({ ...NO_LINKS, knowledgeBase: 'https://help.acme.example/kb' });
    renderPage(KnowledgeBasePage, '/learn/knowledge');
    const card = await screen.findByTestId('external-link-card');
    expect(card.textContent).toContain('More on our site');
    const link = within(card).getByTestId('external-link');
    expect(link.getAttribute('href')).toBe('https://help.acme.example/kb');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
  });
});

describe('FAQ', () => {
  it('shows the questions as a collapse; opening one sets ?article= and shows its answer, closing clears it', async () => {
    const router = renderPage(FaqPage, '/learn/faq');
    const question = await screen.findByTestId('faq-question-traffic-expiry');
    expect(question.textContent).toBe('Does my traffic expire?');
    expect(screen.queryByText(/counted from the moment your payment is confirmed/)).toBeNull();

    fireEvent.click(question);
    expect(router.state.location.search).toBe('?article=traffic-expiry');
    expect(await screen.findByText(/counted from the moment your payment is confirmed/)).toBeTruthy();

    fireEvent.click(screen.getByTestId('faq-question-payment-methods'));
    expect(router.state.location.search).toBe('?article=payment-methods');
    await act(() => router.navigate(-1));
    expect(router.state.location.search).toBe('?article=traffic-expiry');
    await waitFor(() => expect(screen.getByTestId('faq-question-traffic-expiry').closest('.ant-collapse-item')?.className).toContain('ant-collapse-item-active'));

    fireEvent.click(screen.getByTestId('faq-question-traffic-expiry'));
    expect(router.state.location.search).toBe('');
    await waitFor(() => expect(screen.getByTestId('faq-question-traffic-expiry').closest('.ant-collapse-item')?.className).not.toContain('ant-collapse-item-active'));
  });

  it('opens the linked question', async () => {
    renderPage(FaqPage, '/learn/faq?article=http-or-socks5');
    await waitFor(() => expect(screen.getByTestId('faq-question-http-or-socks5').closest('.ant-collapse-item')?.className).toContain('ant-collapse-item-active'));
    expect(screen.getByText(/cannot use a SOCKS5 proxy that needs a username and password/)).toBeTruthy();
  });

  it('an unknown question is a clear not-found state', async () => {
    renderPage(FaqPage, '/learn/faq?article=what');
    expect((await screen.findByTestId('article-not-found')).textContent).toContain('what');
    expect(screen.queryByTestId('faq-list')).toBeNull();
  });
});

describe('Blog', () => {
  it('lists posts newest first with their dates and shows the date on the post', async () => {
    renderPage(BlogPage, '/learn/blog');
    const list = await screen.findByTestId('article-list');
    const items = within(list).getAllByRole('link');
    expect(items.map((a) => a.getAttribute('href'))).toEqual(['/learn/blog?article=polite-scraping', '/learn/blog?article=rotating-vs-static-residential']);
    expect(items[0]!.textContent).toContain('2026-11-09');
    fireEvent.click(items[1]!);
    expect(await screen.findByText('Published 2026-10-14')).toBeTruthy();
  });
});
