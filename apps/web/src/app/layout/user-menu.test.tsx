import type { UserDto } from '@resi/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { LanguageSwitcher } from '@/components/language-switcher';
import { createQueryClient } from '@/lib/query-client';
import { UserMenu } from './user-menu';

const user = { email: 'buyer@example.com', role: 'customer' } as UserDto;

function renderHeader() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter>
        <header data-testid="header">
          <LanguageSwitcher />
          <UserMenu user={user} />
        </header>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return screen.getByTestId('header');
}

// A menu in <body> drifts from the sticky header on scroll, and the slide-in collapses it after its measuring
// pass: either lost clicks made while it opened (see lib/header-dropdown.ts).
describe('header dropdowns', () => {
  it.each([
    ['user-menu', 'Personal info'],
    ['language-switcher', '简体中文'],
  ])('%s opens its menu inside the header, without the slide-in', (trigger, item) => {
    const header = renderHeader();
    fireEvent.click(screen.getByTestId(trigger));
    const menuItem = screen.getByText(item).closest('.ant-dropdown');
    expect(menuItem).not.toBeNull();
    expect(header.contains(menuItem)).toBe(true);
    expect(menuItem?.className).not.toMatch(/slide/);
  });
});
