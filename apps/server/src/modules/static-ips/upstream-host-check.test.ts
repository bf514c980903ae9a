import { describe, expect, it } from 'vitest';
import { UpstreamHostCheck } from './upstream-host-check';

/** A resolver that answers from a table, as DNS would (an unknown name fails like ENOTFOUND). */
const table = (answers: Record<string, string[]>) => async (host: string) => {
  const found = answers[host];
  if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return found.map((address) => ({ address }));
};

describe('UpstreamHostCheck', () => {
  const dns = table({
    'isp.example': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
    'rebind.example': ['93.184.215.14', '127.0.0.1'],
    'metadata.example': ['169.254.169.254'],
    'empty.example': [],
  });

  it('takes a name only when every address it resolves to is public', async () => {
    const problems = await new UpstreamHostCheck(false, dns).problems(['isp.example', 'rebind.example', 'metadata.example', 'empty.example', 'nowhere.example', 'isp.example']);
    expect(Object.fromEntries(problems)).toEqual({
      'rebind.example': 'privateHost',
      'metadata.example': 'privateHost',
      'empty.example': 'unresolvedHost',
      'nowhere.example': 'unresolvedHost',
    });
  });

  it('judges IP literals without a lookup', async () => {
    const never = async () => {
      throw new Error('an IP literal was looked up');
    };
    const problems = await new UpstreamHostCheck(false, never).problems(['8.8.8.8', '2001:4860:4860::8888', '127.0.0.1', '::ffff:10.0.0.1']);
    expect(Object.fromEntries(problems)).toEqual({ '127.0.0.1': 'privateHost', '::ffff:10.0.0.1': 'privateHost' });
  });

  it('lets everything through under the test-only switch, without a lookup', async () => {
    const never = async () => {
      throw new Error('looked up under the switch');
    };
    expect((await new UpstreamHostCheck(true, never).problems(['127.0.0.1', 'localhost'])).size).toBe(0);
  });
});
