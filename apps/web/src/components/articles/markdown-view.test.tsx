import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { MarkdownView } from './markdown-view';

function show(source: string) {
  return render(
    <MemoryRouter>
      <MarkdownView source={source} />
    </MemoryRouter>,
  ).container;
}

describe('MarkdownView', () => {
  it('opens links to other sites in a new tab without a handle on this one, and keeps console links in the app', () => {
    show('[docs](https://docs.example.com/a) and [faq](/learn/faq?article=x) and [here](?article=y)');
    const external = screen.getByRole('link', { name: 'docs' });
    expect(external.getAttribute('target')).toBe('_blank');
    expect(external.getAttribute('rel')).toBe('noopener noreferrer');
    expect(screen.getByRole('link', { name: 'faq' }).getAttribute('target')).toBeNull();
    expect(screen.getByRole('link', { name: 'faq' }).getAttribute('href')).toBe('/learn/faq?article=x');
    expect(screen.getByRole('link', { name: 'here' }).getAttribute('href')).toBe('/?article=y');
  });

  it('renders no raw HTML and drops javascript: links', () => {
    const root = show('<img src=x onerror="alert(1)"> <b>bold</b>\n\n[click](javascript:alert(1))');
    expect(root.querySelector('img')).toBeNull();
    expect(root.querySelector('b')).toBeNull();
    expect(root.textContent).toContain('<b>bold</b>');
    expect(screen.getByText('click').getAttribute('href') ?? '').not.toContain('javascript');
  });

  it('renders GFM tables and gives code blocks a copy button', () => {
    const root = show('| a | b |\n|---|---|\n| 1 | 2 |\n\n```bash\ncurl -x http://h:1 https://e\n```');
    expect(root.querySelectorAll('td')).toHaveLength(2);
    expect(root.querySelector('pre')?.textContent).toBe('curl -x http://h:1 https://e\n');
    expect(screen.getByRole('button', { name: 'Copy' })).toBeTruthy();
  });
});
