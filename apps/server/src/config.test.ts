import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  const dirs: string[] = [];
  const dataDir = () => {
    const d = mkdtempSync(path.join(tmpdir(), 'resi-config-'));
    dirs.push(d);
    return d;
  };
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  /** The ConfigError loadConfig throws for this environment (fails the test if it does not throw one). */
  function errorFor(env: Record<string, string>): ConfigError {
    try {
      loadConfig({ DATA_DIR: dataDir(), ...env });
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      return err as ConfigError;
    }
    throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
  }

  it('derives the public URL from the port and the mail sender from the product name when they are not set', () => {
    const cfg = loadConfig({ DATA_DIR: dataDir(), PORT: '9090', APP_NAME: 'Acme Proxies' });
    expect(cfg).toMatchObject({ PUBLIC_URL: 'http://localhost:9090', MAIL_FROM: 'Acme Proxies <no-reply@localhost>' });
    const set = loadConfig({ DATA_DIR: dataDir(), PORT: '9090', PUBLIC_URL: 'https://console.example.com/', MAIL_FROM: 'Ops <ops@example.com>' });
    expect(set).toMatchObject({ PUBLIC_URL: 'https://console.example.com', MAIL_FROM: 'Ops <ops@example.com>' });
  });

  it('has working defaults', () => {
    const cfg = loadConfig({ DATA_DIR: dataDir() });
    expect(cfg).toMatchObject({ PORT: 8080, NODE_ENV: 'development', GATEWAY_HTTP_PORT: 7777, GATEWAY_SOCKS_PORT: 7778, webDist: null });
    expect(cfg.DATABASE_URL).toBeUndefined();
    expect(cfg.SMTP_URL).toBeUndefined();
    expect(cfg.REDIS_URL).toBeUndefined();
    expect(cfg.REDIS_PREFIX).toBe('resi:');
    expect(cfg).toMatchObject({ GATEWAY_HANDSHAKE_MS: 10_000, GATEWAY_MAX_PENDING_PER_IP: 64, GATEWAY_MAX_PENDING_PER_NET: 256, API_HEADERS_TIMEOUT_MS: 10_000, API_REQUEST_TIMEOUT_MS: 30_000, API_MAX_CONNECTIONS_PER_IP: 128 });
    expect(cfg.GATEWAY_MAX_CONNECTIONS).toBeUndefined();
    expect(cfg.GATEWAY_LEASE_BYTES).toBe(1024 * 1024);
    expect(cfg.GATEWAY_ACCOUNT_MAX_CONNECTIONS).toBeUndefined();
    expect(cfg.GATEWAY_SHARED_BUDGETS).toBe('auto');
    expect(cfg).toMatchObject({ PUBLIC_URL: 'http://localhost:8080', MAIL_FROM: 'Resi Console <no-reply@localhost>' });
    // No support link unless one is set: the console then shows no "Contact support".
    expect(cfg.SUPPORT_URL).toBeUndefined();
    // Metrics are off and no health listener runs unless asked for.
    expect(cfg.METRICS_PORT).toBeUndefined();
    expect(cfg.HEALTH_PORT).toBeUndefined();
    expect(cfg.METRICS_HOST).toBe('127.0.0.1');
    expect(path.isAbsolute(cfg.dataDir)).toBe(true);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '0'],
    ['DATABASE_URL', 'mysql://root@localhost/db'],
    ['DATABASE_URL', 'not a url'],
    ['SMTP_URL', 'http://mail.example.com'],
    ['SMTP_URL', 'mail.example.com:25'],
    ['REDIS_URL', 'http://127.0.0.1:6379'],
    ['REDIS_URL', '127.0.0.1:6379'],
    ['REDIS_PREFIX', 'has space'],
    ['GATEWAY_HTTP_PORT', '-1'],
    ['GATEWAY_LEASE_BYTES', '1000'],
    ['GATEWAY_LEASE_BYTES', '1.5'],
    ['GATEWAY_LEASE_BYTES', 'lots'],
    ['GATEWAY_ACCOUNT_MAX_CONNECTIONS', '0'],
    ['GATEWAY_ACCOUNT_MAX_CONNECTIONS', 'ten'],
    ['GATEWAY_SHARED_BUDGETS', 'yes'],
    ['APP_SECRET', 'short'],
    ['NODE_ENV', 'staging'],
    ['PUBLIC_URL', 'example.com'],
    ['TRUST_PROXY', 'true'],
    ['TRUST_PROXY', 'proxy.example.com'],
    ['TRUST_PROXY', '10.0.0.0/33'],
    ['TRUST_PROXY', '10.0.0.1,'],
    ['TRUST_PROXY', '-1'],
    ['GATEWAY_HANDSHAKE_MS', '0'],
    ['GATEWAY_HANDSHAKE_MS', 'ten'],
    ['GATEWAY_MAX_PENDING_PER_IP', '0'],
    ['GATEWAY_MAX_PENDING_PER_NET', '0'],
    ['GATEWAY_MAX_PENDING', '-1'],
    ['GATEWAY_MAX_CONNECTIONS', '-5'],
    ['API_HEADERS_TIMEOUT_MS', '1.5'],
    ['API_MAX_CONNECTIONS_PER_IP', '0'],
    ['API_HEADERS_TIMEOUT_MS', '60000'],
    ['METRICS_PORT', 'on'],
    ['METRICS_PORT', '70000'],
    ['HEALTH_PORT', '0'],
  ])('refuses %s=%s with a message naming the variable', (name, value) => {
    const err = errorFor({ [name]: value });
    expect(err.message).toMatch(new RegExp(`^\\s*${name}:`, 'm'));
  });

  it('names every bad variable at once', () => {
    const err = errorFor({ PORT: 'x', SMTP_URL: 'ftp://x' });
    expect(err.message).toMatch(/^\s*PORT:/m);
    expect(err.message).toMatch(/^\s*SMTP_URL:/m);
  });

  it('accepts good values', () => {
    const cfg = loadConfig({
      DATA_DIR: dataDir(),
      PORT: '3000',
      DATABASE_URL: 'postgresql://u:p@db:5432/resi',
      SMTP_URL: 'smtps://u:p@mail.example.com:465',
      REDIS_URL: 'rediss://:pw@cache.example.com:6380/0',
      REDIS_PREFIX: 'shop-eu:',
    });
    expect(cfg).toMatchObject({
      PORT: 3000,
      DATABASE_URL: 'postgresql://u:p@db:5432/resi',
      SMTP_URL: 'smtps://u:p@mail.example.com:465',
      REDIS_URL: 'rediss://:pw@cache.example.com:6380/0',
      REDIS_PREFIX: 'shop-eu:',
    });
  });

  it('takes METRICS_PORT, METRICS_HOST and HEALTH_PORT, each a port of its own', () => {
    const cfg = loadConfig({ DATA_DIR: dataDir(), METRICS_PORT: '9464', METRICS_HOST: '10.0.0.5', HEALTH_PORT: '8081' });
    expect(cfg).toMatchObject({ METRICS_PORT: 9464, METRICS_HOST: '10.0.0.5', HEALTH_PORT: 8081 });
    expect(errorFor({ METRICS_PORT: '8080' }).message).toMatch(/^\s*METRICS_PORT: must be a port of its own \(it equals PORT\)$/m);
    expect(errorFor({ HEALTH_PORT: '7777' }).message).toMatch(/^\s*HEALTH_PORT: must be a port of its own \(it equals GATEWAY_HTTP_PORT\)$/m);
    expect(errorFor({ METRICS_PORT: '9000', HEALTH_PORT: '9000' }).message).toMatch(/^\s*METRICS_PORT: must be a port of its own \(it equals HEALTH_PORT\)$/m);
  });

  it('trusts no proxy by default, and a hop count or a list of addresses when TRUST_PROXY says so', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ DATA_DIR: dataDir(), TRUST_PROXY: 'off' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ DATA_DIR: dataDir(), TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadConfig({ DATA_DIR: dataDir(), TRUST_PROXY: ' 10.0.0.0/8, 127.0.0.1,::1, fd00::/8 ,loopback' }).TRUST_PROXY).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
  });

  it('takes the operator\'s own Learn and Toolbox pages as optional http(s) URLs', () => {
    const cfg = loadConfig({ DATA_DIR: dataDir(), KNOWLEDGE_BASE_URL: 'https://help.example.com/kb', FAQ_URL: 'http://help.example.com/faq', BLOG_URL: '' });
    expect(cfg).toMatchObject({ KNOWLEDGE_BASE_URL: 'https://help.example.com/kb', FAQ_URL: 'http://help.example.com/faq' });
    expect(cfg.BLOG_URL).toBeUndefined();
    expect(cfg.TOOLBOX_URL).toBeUndefined();
    for (const name of ['KNOWLEDGE_BASE_URL', 'FAQ_URL', 'BLOG_URL', 'TOOLBOX_URL']) {
      for (const value of ['javascript:alert(1)', 'ftp://files.example.com/', 'help.example.com/kb', '/manage/kb']) {
        const err = errorFor({ [name]: value });
        expect(err.message, `${name}=${value}`).toMatch(new RegExp(`^\\s*${name}: must be an http:// or https:// URL$`, 'm'));
      }
    }
  });

  it('treats empty variables as unset', () => {
    const cfg = loadConfig({ DATA_DIR: dataDir(), PORT: '', DATABASE_URL: '', SMTP_URL: '' });
    expect(cfg.PORT).toBe(8080);
    expect(cfg.DATABASE_URL).toBeUndefined();
  });

  it('refuses CAPTCHA_TEST_ANSWER when NODE_ENV=production', () => {
    const err = errorFor({ NODE_ENV: 'production', CAPTCHA_TEST_ANSWER: '1234' });
    expect(err.message).toMatch(/CAPTCHA_TEST_ANSWER/);
    expect(loadConfig({ DATA_DIR: dataDir(), NODE_ENV: 'test', CAPTCHA_TEST_ANSWER: '1234' }).CAPTCHA_TEST_ANSWER).toBe('1234');
    expect(loadConfig({ DATA_DIR: dataDir(), NODE_ENV: 'production' }).CAPTCHA_TEST_ANSWER).toBeUndefined();
  });

  it('takes GATEWAY_ALLOW_PRIVATE_DESTINATIONS as a boolean, off by default and refused when NODE_ENV=production', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).GATEWAY_ALLOW_PRIVATE_DESTINATIONS).toBe(false);
    expect(loadConfig({ DATA_DIR: dataDir(), NODE_ENV: 'test', GATEWAY_ALLOW_PRIVATE_DESTINATIONS: 'true' }).GATEWAY_ALLOW_PRIVATE_DESTINATIONS).toBe(true);
    expect(loadConfig({ DATA_DIR: dataDir(), GATEWAY_ALLOW_PRIVATE_DESTINATIONS: 'false' }).GATEWAY_ALLOW_PRIVATE_DESTINATIONS).toBe(false);
    expect(errorFor({ GATEWAY_ALLOW_PRIVATE_DESTINATIONS: 'maybe' }).message).toMatch(/^\s*GATEWAY_ALLOW_PRIVATE_DESTINATIONS:/m);
    expect(errorFor({ NODE_ENV: 'production', GATEWAY_ALLOW_PRIVATE_DESTINATIONS: 'true' }).message).toMatch(/GATEWAY_ALLOW_PRIVATE_DESTINATIONS: test-only switch/);
    expect(loadConfig({ DATA_DIR: dataDir(), NODE_ENV: 'production', GATEWAY_ALLOW_PRIVATE_DESTINATIONS: 'false' }).GATEWAY_ALLOW_PRIVATE_DESTINATIONS).toBe(false);
  });

  it('wants ADMIN_EMAIL and ADMIN_PASSWORD together', () => {
    expect(errorFor({ ADMIN_EMAIL: 'boss@example.com' }).message).toMatch(/ADMIN_EMAIL/);
    expect(errorFor({ ADMIN_EMAIL: 'not-an-email', ADMIN_PASSWORD: 'longenough1' }).message).toMatch(/^\s*ADMIN_EMAIL:/m);
  });

  it('generates APP_SECRET into DATA_DIR on first load and reuses it', () => {
    const dir = dataDir();
    const first = loadConfig({ DATA_DIR: dir });
    expect(first.APP_SECRET.length).toBeGreaterThanOrEqual(32);
    const file = path.join(dir, 'app-secret');
    expect(readFileSync(file, 'utf8').trim()).toBe(first.APP_SECRET);
    expect(statSync(file).mode & 0o077).toBe(0);
    expect(loadConfig({ DATA_DIR: dir }).APP_SECRET).toBe(first.APP_SECRET);
    // Another store gets another secret.
    expect(loadConfig({ DATA_DIR: dataDir() }).APP_SECRET).not.toBe(first.APP_SECRET);
  });

  it('gives processes that start at once one secret, never a half-written file', async () => {
    const tsx = path.resolve(import.meta.dirname, '../../../node_modules/.bin/tsx');
    const child = path.resolve(import.meta.dirname, '../test/secret-race-child.ts');
    for (let round = 0; round < 3; round++) {
      const dir = dataDir();
      const barrier = mkdtempSync(path.join(dir, 'barrier-'));
      const run = () => promisify(execFile)(tsx, [child, dir, barrier, '2'], { encoding: 'utf8' });
      const [a, b] = await Promise.all([run(), run()]);
      expect(a.stdout.length).toBeGreaterThanOrEqual(32);
      expect(b.stdout).toBe(a.stdout);
      expect(readFileSync(path.join(dir, 'app-secret'), 'utf8').trim()).toBe(a.stdout);
      // The temporary files the secret is written through are gone.
      expect(readdirSync(dir).sort()).toEqual(['app-secret', path.basename(barrier)]);
    }
  });

  it('refuses a generated secret file shorter than 32 characters, naming APP_SECRET', () => {
    const dir = dataDir();
    // What a reader of a file still being written would have seen.
    writeFileSync(path.join(dir, 'app-secret'), '');
    expect(() => loadConfig({ DATA_DIR: dir })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dir })).toThrow(/^\s*APP_SECRET: .*app-secret holds 0 characters, at least 32/m);
    writeFileSync(path.join(dir, 'app-secret'), 'x'.repeat(31) + '\n');
    expect(() => loadConfig({ DATA_DIR: dir })).toThrow(/APP_SECRET: .*holds 31 characters/);
    writeFileSync(path.join(dir, 'app-secret'), 'x'.repeat(32) + '\n');
    expect(loadConfig({ DATA_DIR: dir }).APP_SECRET).toBe('x'.repeat(32));
  });

  it('uses APP_SECRET from the environment without writing a file', () => {
    const dir = dataDir();
    const secret = 's'.repeat(40);
    expect(loadConfig({ DATA_DIR: dir, APP_SECRET: secret }).APP_SECRET).toBe(secret);
    expect(existsSync(path.join(dir, 'app-secret'))).toBe(false);
  });

  it('creates DATA_DIR when it does not exist', () => {
    const dir = path.join(dataDir(), 'nested', 'data');
    expect(loadConfig({ DATA_DIR: dir }).dataDir).toBe(dir);
    expect(existsSync(dir)).toBe(true);
  });

  it('carries webDist through', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }, '/srv/web/dist').webDist).toBe('/srv/web/dist');
  });
});
