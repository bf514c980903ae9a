import { cleanup, screen } from '@testing-library/react';
import { expect, it } from 'vitest';
import { notify } from '@/lib/notify';

// The first toast loads antd: on a loaded 2-core machine that takes seconds. A budget, not a wait.
const waitLong = { timeout: 10_000 };

// A toast's root or timer that outlived its test once failed a whole run ("window is not defined" after jsdom left).
it('a toast shown without the antd provider is drawn, and gone with the test’s cleanup', { timeout: 30_000 }, async () => {
  notify.error('Payment refused (test).');
  expect(await screen.findByText('Payment refused (test).', {}, waitLong)).toBeTruthy();
  cleanup();
  expect(document.body.textContent).not.toContain('Payment refused (test).');
  notify.success('Saved (test).');
  expect(await screen.findByText('Saved (test).', {}, waitLong)).toBeTruthy();
});
