import { type APIRequestContext, type Locator, type Page, expect } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { E2E } from './e2e-env';
import { codeFromOutbox } from './outbox';

/**
 * Opens a console address carrying `?token=` in a tab without a session, says yes when the console asks
 * about the link (it asks every time: docs/security.md, a link carrying a session), and waits until the
 * session is kept, the token gone from the address and the page the link named open.
 */
export async function openWithSession(page: Page, address: string): Promise<void> {
  await page.goto(address);
  await confirmSessionSwitch(page);
  await expect(page).not.toHaveURL(/[?&]token=|\/user\/login/);
}

/**
 * What the first look at a page just opened may take: a fresh tab loads the console's code and its data
 * on a 2-core machine that also runs the server, and took over the 15 s of other expectations under load.
 * A budget, not a wait: the expectation passes the moment the page is there.
 */
export const FIRST_PAINT_MS = 60_000;

/**
 * Waits until the page has nothing loading (no skeleton, no spinner): a click or a choice made while
 * parts of the page still arrive can reach an element that is about to be replaced, and be lost. Often
 * the first look at a page just opened, so it has that budget.
 */
export async function settled(page: Page): Promise<void> {
  await expect(page.locator('.ant-skeleton, .ant-spin-spinning, .page-loading')).toHaveCount(0, { timeout: FIRST_PAINT_MS });
}

/**
 * What a dialog whose action reloads the page behind it may take to close after one press: 6–9 s were measured
 * beside two other browser suites. A budget, not a wait, and never a second press.
 */
const DIALOG_CLOSE_MS = 30_000;

/**
 * Opens a select, picks an option once and checks the select shows it: a pick that does not take fails here.
 *
 * The click waits until the list is where a person would see it: wholly on screen, done animating open and
 * aligned to its field. Two picks were lost in CI before this, both by clicking a list antd had not placed yet:
 * - a select at the bottom edge opened its list below the fold before antd flipped it above; Playwright scrolled
 *   to the option and clicked in the same frame, so the click landed on the field's label (hence the select is
 *   brought to the middle of the screen first);
 * - a list opening in a dialog sat at the top of the page for two frames before antd aligned it under its field;
 *   Playwright found it stable there and pressed, the list moved between the press and the release, and no click
 *   reached the option (the trace shows the press at y = 16 for a field at y = 344).
 * A person cannot click within two frames of opening a list; the harness's speed was the cause both times.
 */
export async function choose(page: Page, select: Locator, option: string): Promise<void> {
  await select.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await select.click();
  const list = page.locator('.ant-select-dropdown:visible', { has: page.locator('.ant-select-item-option', { hasText: option }) });
  const item = list.locator('.ant-select-item-option', { hasText: option }).first();
  await expect(list).not.toHaveClass(/-(appear|enter|leave)(\s|$)/);
  await expect.poll(() => alignedTo(select, list), { message: 'the list to sit at its field' }).toBe(true);
  await expect(item).toBeInViewport({ ratio: 1 });
  await item.click();
  await expect(select).toContainText(option);
}

/** True when `list` touches `field`'s bottom edge (opened below) or its top edge (flipped above), within a few pixels. */
async function alignedTo(field: Locator, list: Locator): Promise<boolean> {
  const [f, l] = await Promise.all([field.boundingBox(), list.boundingBox()]);
  if (!f || !l) return false;
  const SLACK = 12;
  return Math.abs(l.y - (f.y + f.height)) <= SLACK || Math.abs(l.y + l.height - f.y) <= SLACK;
}

/**
 * Presses the button of a confirmation dialog (Modal.confirm) once and waits until the dialog has closed. It
 * closes when its action has run: the server's answer and the reload of the lists that answer changed (User
 * Management's disable, DIALOG_CLOSE_MS); a dialog still open after that is a press that did nothing, and
 * fails here.
 */
export async function confirmDialog(page: Page, buttonTestId: string): Promise<void> {
  const dialog = page.locator('.ant-modal-confirm', { has: page.getByTestId(buttonTestId) });
  await dialogOpened(dialog);
  await dialog.getByTestId(buttonTestId).click();
  await expect(dialog).toHaveCount(0, { timeout: DIALOG_CLOSE_MS });
}

/**
 * Waits until a dialog has finished zooming open. antd holds a new dialog at a fifth of its size for a frame
 * or two before the zoom starts; Playwright found its button "stable" there, pressed a 22 × 6 px target and the
 * press reached nothing (a CI run lost "Mark as paid" this way). A person cannot press within those frames.
 */
export async function dialogOpened(dialog: Locator): Promise<void> {
  await expect(dialog).toBeVisible();
  await expect(dialog).not.toHaveClass(/-(appear|enter)(\s|$|-)/);
}

/**
 * Chooses a payment method in a checkout with one click and checks it shows as chosen: a lost click fails here.
 * Every checkout is a dialog, so it is pressed once the dialog has finished zooming open (dialogOpened): a CI
 * run pressed a method while the dialog was held small before its zoom, and the press reached nothing.
 */
export async function choosePayMethod(scope: Locator, method: 'sandbox' | 'manual'): Promise<void> {
  const page = scope.page();
  await dialogOpened(page.locator('.ant-modal', { has: scope }));
  // `has` is matched inside each label, so it names the option from the page, not from `scope`.
  const radio = scope.locator('label', { has: page.getByTestId(`pay-method-${method}`) }).locator('input[type=radio]');
  await scope.getByTestId(`pay-method-${method}`).click();
  await expect(radio).toBeChecked();
}

/**
 * Answers yes to the question about a link's session (sign in, or switch account) with one click, once the
 * dialog has named the link's account, and waits until it has closed. The first look at it in a fresh tab
 * loads the console's code (FIRST_PAINT_MS). The click takes at once (the new account's /api/user leaves
 * with it), but the dialog zooms out while the whole page is drawn again for the new account: over 5 s on a
 * loaded machine, which the old 2 s window read as a lost click (DIALOG_CLOSE_MS).
 */
export async function confirmSessionSwitch(page: Page): Promise<void> {
  const confirm = page.getByTestId('session-switch-confirm');
  await expect(confirm).toBeEnabled({ timeout: FIRST_PAINT_MS });
  await confirm.click();
  await expect(confirm).toBeHidden({ timeout: DIALOG_CLOSE_MS });
}

/** Fills the picture code, presses "send code" and types the code the server mailed to `email`. */
export async function requestMailCode(page: Page, form: string, email: string): Promise<void> {
  const scope = page.getByTestId(form);
  await scope.locator('.captcha-input input').fill(E2E.captcha);
  const sentAfter = Date.now() - 1;
  await scope.getByTestId('send-code').click();
  const code = await codeFromOutbox(email, sentAfter);
  await scope.locator('input[autocomplete="one-time-code"]').fill(code);
}

/** Logs in through the API (captcha answer fixed by CAPTCHA_TEST_ANSWER) and returns the bearer token. */
export async function apiLogin(request: APIRequestContext, account: string, password: string): Promise<string> {
  const captcha = await request.get('/api/captcha');
  expect(captcha.ok()).toBe(true);
  const { data } = (await captcha.json()) as { data: { id: string } };
  const res = await request.post('/api/login', { data: { account, password, captchaId: data.id, captcha: E2E.captcha } });
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()) as { token: string }).token;
}

/**
 * Registers a customer through the API with the code mailed to the outbox (with `inviteCode`: a distributor's
 * referral); returns the session token. Each customer registers from a loopback address of its own (127.0.0.2 and
 * up, picked by its e-mail address), as customers come from their own: the server sends at most 20 codes to one
 * address an hour, and the suite registers about that many. From 127.0.0.1 alone it sat at the limit, so when a
 * failed test made a file's hooks run again, every later registration was refused MAIL_CODE_TOO_MANY.
 */
export async function apiRegister(email: string, password: string, extra: { inviteCode?: string } = {}): Promise<string> {
  const from = `127.0.0.${2 + ([...email].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7) % 250)}`;
  const captcha = await apiFrom(from, 'GET', '/api/captcha');
  const { id } = (captcha.body as { data: { id: string } }).data;
  const sentAfter = Date.now() - 1;
  const sent = await apiFrom(from, 'POST', '/api/send-mail-code', { email, purpose: 'register', captchaId: id, captcha: E2E.captcha });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  const code = await codeFromOutbox(email, sentAfter);
  const res = await apiFrom(from, 'POST', '/api/register', { email, password, code, agree: true, ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as { token: string }).token;
}

/** One JSON call to the console's server from the loopback address `from` (Playwright's request cannot pick one). */
function apiFrom(from: string, method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  const url = new URL(path, E2E.baseURL);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, path: url.pathname, method, localAddress: from, headers: payload ? { 'content-type': 'application/json' } : {} },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as unknown }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Tour mode (`npm run tour`, E2E_TOUR=1): screenshots are taken for people to look at; otherwise none are. */
export const TOUR = process.env.E2E_TOUR === '1';

/**
 * Full-page screenshot under artifacts/screenshots/<store>/ (`name` may hold folders), in tour mode only:
 * nothing compares the pictures, so an ordinary run does not spend its time taking them.
 */
export async function keepScreenshot(page: Page, name: string): Promise<void> {
  if (!TOUR) return;
  const file = path.join(E2E.screenshots, `${name}.png`);
  mkdirSync(path.dirname(file), { recursive: true });
  // From the top: a full-page capture of a scrolled page draws the fixed side menu and the sticky
  // header at the scroll offset, in the middle of the picture, where no user ever sees them.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: file, fullPage: true });
}

export const LANGS = ['en', 'zh-cn', 'zh'] as const;
