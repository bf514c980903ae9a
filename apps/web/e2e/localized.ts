import { type Page, expect } from '@playwright/test';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { E2E } from './e2e-env';

/**
 * The console's own short texts: headings, card and dialog titles, labels, buttons, table headers, tabs, menus.
 * Help prose (form extras, alert descriptions) is left out: it names webhook events and API hosts on purpose.
 */
const UI_TEXT = [
  'h1, h2, h3, h4, h5, h6',
  '.ant-card-head-title, .ant-modal-title, .ant-alert-title',
  'label, button, th, [role="tab"], [role="menuitem"]',
  '.ant-statistic-title, .ant-segmented-item-label, .ant-select-selection-placeholder',
  '.ant-empty-description, .ant-tag, .ant-pagination-total-text',
].join(', ');

// A missing key comes back from i18next as the key itself: `<namespace>.<path>` (any depth) for our locale
// files, and the generic shape `word.word.word` for anything else. Both only on the UI texts above, where
// hostnames and emails (the user menu's `name@e2e.test`) do not take that shape.
const namespaces = readdirSync(path.join(E2E.root, 'apps/web/src/locales/en')).map((f) => f.replace(/\.json$/, ''));
const NAMESPACED_KEY = new RegExp(`\\b(?:${namespaces.join('|')})\\.[A-Za-z0-9_-]+(?:\\.[A-Za-z0-9_-]+)*\\b`);
const DOTTED_KEY = /\b[a-z]+(?:\.[a-zA-Z]+){2,}\b/;
/** An interpolation i18next could not fill. */
const PLACEHOLDER = /\{\{\s*\w+\s*\}\}/;

const URL_LIKE = /\b[a-z][a-z0-9+.-]*:\/\/\S+/gi;

export function looksLikeRawKey(text: string): boolean {
  const words = text.replace(URL_LIKE, ' ');
  return NAMESPACED_KEY.test(words) || DOTTED_KEY.test(words) || PLACEHOLDER.test(text);
}

/** Visible UI texts and the placeholders / aria-labels of visible elements. */
async function visibleUiTexts(page: Page): Promise<string[]> {
  return page.evaluate((selector) => {
    const visible = (el: Element) => el.checkVisibility({ opacityProperty: true, visibilityProperty: true });
    const texts: string[] = [];
    for (const el of document.querySelectorAll(selector)) {
      if (!visible(el)) continue;
      const text = (el as HTMLElement).innerText?.trim();
      if (text) texts.push(text);
    }
    for (const el of document.querySelectorAll('[placeholder], [aria-label]')) {
      if (!visible(el)) continue;
      for (const attr of ['placeholder', 'aria-label']) {
        const value = el.getAttribute(attr)?.trim();
        if (value) texts.push(value);
      }
    }
    return texts;
  }, UI_TEXT);
}

/** Visible UI texts of the page that look like untranslated keys or unfilled placeholders; none is expected. */
export async function rawKeyTexts(page: Page): Promise<string[]> {
  return (await visibleUiTexts(page)).filter(looksLikeRawKey);
}

/**
 * The page is in the expected language: `Resi Console - <title>`, one visible heading (page heading, card or
 * dialog title) with the given text, and no UI text that looks like an untranslated key.
 */
export async function expectLocalizedPage(page: Page, expected: { title: string; heading: string }): Promise<void> {
  await expect(page).toHaveTitle(`Resi Console - ${expected.title}`);
  const headings = page.locator('h1, h2, h3, h4, h5, h6, .ant-card-head-title, .ant-modal-title');
  const exact = new RegExp(`^\\s*${expected.heading.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
  await expect(headings.filter({ hasText: exact }).first()).toBeVisible();
  expect(await rawKeyTexts(page), `texts that look like raw i18n keys on ${page.url()}`).toEqual([]);
}
