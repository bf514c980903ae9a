import { describe, expect, it } from 'vitest';
import {
  channelFromSearch,
  documentTitle,
  hasEmail,
  isPublicPath,
  langFromSearch,
  loginRedirect,
  returnPath,
  resolveNavigation,
  stripBasename,
  tokenFromSearch,
  withoutParam,
} from './navigation';

const NOW = 1_700_000_000_000;
const nav = (pathname: string, search = '', storedToken: string | null = null) => resolveNavigation({ pathname, search, storedToken, now: NOW });

describe('rule 1: public paths and the session token', () => {
  it('knows exactly the three public paths', () => {
    expect(['/user/login', '/user/register', '/error'].every(isPublicPath)).toBe(true);
    expect(isPublicPath('/user/login/')).toBe(true);
    for (const path of ['/', '/center', '/user/personal', '/user', '/manage/user', '/user/loginx', '/errors', '/legal/terms.en.html']) {
      expect(isPublicPath(path)).toBe(false);
    }
  });

  it('sends a visitor without token to /user/login?t=<now>', () => {
    const decision = nav('/center');
    expect(decision.redirectTo).toBe(`/user/login?t=${NOW}`);
    expect(decision.reloadUser).toBe(false);
    expect(loginRedirect(5)).toBe('/user/login?t=5');
  });

  it('names the page asked for in the login redirect, except Account Home', () => {
    expect(nav('/usage/record', '?page=2').redirectTo).toBe(`/user/login?t=${NOW}&redirect=${encodeURIComponent('/usage/record?page=2')}`);
    expect(nav('/center').redirectTo).toBe(`/user/login?t=${NOW}`);
    expect(nav('/').redirectTo).toBe(`/user/login?t=${NOW}`);
    expect(loginRedirect(5, '/center/buy')).toBe(`/user/login?t=5&redirect=${encodeURIComponent('/center/buy')}`);
  });

  it('returns only to a path of this console: other hosts, schemes, encoded tricks and public pages go home', () => {
    expect(returnPath('/usage/record?page=2')).toBe('/usage/record?page=2');
    expect(returnPath('/center/buy')).toBe('/center/buy');
    for (const evil of ['//evil.example', '/\\evil.example', '\\evil.example', 'https:evil.example', 'https://evil.example/x', 'javascript:alert(1)', '/.//evil.example', '/\t/evil.example', 'evil', '', null, undefined, '/user/login', '/user/register?x=1']) {
      expect(returnPath(evil)).toBeNull();
    }
    // Still encoded after URLSearchParams decoded it once: a harmless console path, not another host.
    expect(returnPath('/%2F%2Fevil.example')).toBe('/%2F%2Fevil.example');
    expect(returnPath(new URLSearchParams('redirect=%2F%2Fevil.example').get('redirect'))).toBeNull();
    expect(returnPath(new URLSearchParams('redirect=%2F%5Cevil.example').get('redirect'))).toBeNull();
  });

  it('lets public paths through without a token and without reloading the user', () => {
    for (const path of ['/user/login', '/user/register', '/error']) {
      const decision = nav(path, '?t=1');
      expect(decision.redirectTo).toBeNull();
      expect(decision.reloadUser).toBe(false);
      expect(decision.offerToken).toBeNull();
    }
  });

  it('accepts a token from session storage and reloads the user (rule 5)', () => {
    const decision = nav('/center/buy', '', 'stored');
    expect(decision.redirectTo).toBeNull();
    expect(decision.reloadUser).toBe(true);
  });

  it('takes a token from the query out of the address bar and offers it for a yes, in a fresh tab on the login page', () => {
    const decision = nav('/user/personal', '?a=1&token=abc&lang=zh', null);
    expect(decision.offerToken).toEqual({ token: 'abc', page: '/user/personal?a=1&lang=zh' });
    expect(decision.redirectTo).toBe(`/user/login?t=${NOW}&redirect=${encodeURIComponent('/user/personal?a=1&lang=zh')}`);
    expect(nav('/center', '?token=abc').redirectTo).toBe(`/user/login?t=${NOW}`);
    expect(tokenFromSearch('?token=')).toBeNull();
  });

  it("asks before another session's token replaces the stored one, the page staying as it is", () => {
    const other = nav('/center', '?token=new&lang=zh', 'old');
    expect(other.offerToken).toEqual({ token: 'new', page: '/center?lang=zh' });
    expect(other.redirectTo).toBe('/center?lang=zh');
  });

  it('asks nothing for the session the tab already holds', () => {
    const same = nav('/center', '?token=same&lang=zh', 'same');
    expect(same.offerToken).toBeNull();
    expect(same.redirectTo).toBe('/center?lang=zh');
  });
});

describe('rule 2: language switch', () => {
  it('reads en, zh-cn and zh, case-insensitive', () => {
    expect(langFromSearch('?lang=en')).toBe('en');
    expect(langFromSearch('?lang=zh-cn')).toBe('zh-cn');
    expect(langFromSearch('?lang=ZH-CN')).toBe('zh-cn');
    expect(langFromSearch('?lang=zh')).toBe('zh');
  });

  it('ignores missing or unknown values', () => {
    expect(langFromSearch('')).toBeNull();
    expect(langFromSearch('?lang=fr')).toBeNull();
    expect(langFromSearch('?lang=')).toBeNull();
  });

  it('is part of every decision, public or not, with or without a token', () => {
    expect(nav('/user/login', '?lang=zh').lang).toBe('zh');
    expect(nav('/center', '?lang=zh-cn').lang).toBe('zh-cn');
    expect(nav('/center', '?lang=zh-cn', 'tok').lang).toBe('zh-cn');
  });
});

describe('rule 3: page title', () => {
  it('prefixes the route title with the product name', () => {
    expect(documentTitle('Resi Console', 'Account Home')).toBe('Resi Console - Account Home');
    expect(documentTitle('Acme', null)).toBe('Acme');
  });
});

describe('rule 4: channel capture', () => {
  it('remembers whichever of hz, yl, qd is present: key = parameter name, value = its value', () => {
    expect(channelFromSearch('?hz=abc')).toEqual({ key: 'hz', value: 'abc' });
    expect(channelFromSearch('?yl=42')).toEqual({ key: 'yl', value: '42' });
    expect(channelFromSearch('?qd=tiktok&x=1')).toEqual({ key: 'qd', value: 'tiktok' });
    expect(channelFromSearch('?x=1')).toBeNull();
    expect(channelFromSearch('?hz=')).toBeNull();
  });

  it('is captured on public paths (register) and before the login redirect', () => {
    expect(nav('/user/register', '?invite=X&qd=google').channel).toEqual({ key: 'qd', value: 'google' });
    const guarded = nav('/center', '?hz=partner');
    expect(guarded.channel).toEqual({ key: 'hz', value: 'partner' });
    expect(guarded.redirectTo).toBe(`/user/login?t=${NOW}`);
  });
});

describe('helpers', () => {
  it('requires an email in the current user', () => {
    expect(hasEmail({ email: 'a@b.c' })).toBe(true);
    expect(hasEmail({ email: '' })).toBe(false);
    expect(hasEmail({})).toBe(false);
    expect(hasEmail(null)).toBe(false);
  });

  it('strips the router basename', () => {
    expect(stripBasename('/manage/center', '/manage')).toBe('/center');
    expect(stripBasename('/manage', '/manage')).toBe('/');
    expect(stripBasename('/manage/', '/manage')).toBe('/');
    expect(stripBasename('/managex', '/manage')).toBe('/managex');
  });

  it('removes one query parameter', () => {
    expect(withoutParam('?token=a', 'token')).toBe('');
    expect(withoutParam('?b=2&token=a&c=3', 'token')).toBe('?b=2&c=3');
  });
});
