import { act, render } from '@testing-library/react';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { antdLocale, i18n, setLanguage } from './i18n';
import { SESSION_KEYS } from './storage';

/** Every text a component rendered, in order: a raw key shown for one frame would be in here. */
function renderLogged() {
  const shown: string[] = [];
  function Probe() {
    const { t } = useTranslation();
    const text = t('routes.login');
    shown.push(text);
    return <span>{text}</span>;
  }
  render(<Probe />);
  return shown;
}

afterEach(async () => {
  await act(() => setLanguage('en'));
});

describe('language packs', () => {
  it('start with the first language only; the others load when chosen', async () => {
    expect(i18n.language).toBe('en');
    expect(i18n.hasResourceBundle('en', 'translation')).toBe(true);
    expect(i18n.hasResourceBundle('zh', 'translation')).toBe(false);
    expect(antdLocale('zh')).toBeUndefined();

    await act(() => setLanguage('zh'));
    expect(i18n.hasResourceBundle('zh', 'translation')).toBe(true);
    expect(antdLocale('zh')?.locale).toBe('zh-tw');
    expect(dayjs.locale()).toBe('zh-tw');
    expect(document.documentElement.lang).toBe('zh-TW');
    expect(sessionStorage.getItem(SESSION_KEYS.lang)).toBe('zh');
  });

  it('switch only once the pack is in: no raw key is ever rendered', async () => {
    const shown = renderLogged();
    const switching = setLanguage('zh-cn');
    // Still loading: the page keeps its language rather than showing keys.
    expect(i18n.language).toBe('en');
    await act(() => switching);
    expect(shown.at(-1)).toBe('登录');
    expect(shown).not.toContain('routes.login');
    expect(new Set(shown)).toEqual(new Set(['Login', '登录']));
  });

  it('end on the last choice when a second one is made while the first pack loads', async () => {
    const shown = renderLogged();
    await act(() => Promise.all([setLanguage('zh-cn'), setLanguage('zh')]));
    expect(i18n.language).toBe('zh');
    expect(shown.at(-1)).toBe('登入');
    expect(sessionStorage.getItem(SESSION_KEYS.lang)).toBe('zh');
  });
});
