import { describe, expect, it } from 'vitest';
import { emailIdentity } from './email-identity';

describe('emailIdentity', () => {
  it('reads +tags, case and Gmail dots as one mailbox', () => {
    expect(emailIdentity('Alice+shop@Example.com')).toBe('alice@example.com');
    expect(emailIdentity('a.l.ice+x@googlemail.com')).toBe('alice@gmail.com');
    expect(emailIdentity('A.lice@gmail.com')).toBe(emailIdentity('alice@GMAIL.com'));
  });

  it('keeps dots where the provider does not ignore them, and other people apart', () => {
    expect(emailIdentity('a.lice@example.com')).not.toBe(emailIdentity('alice@example.com'));
    expect(emailIdentity('alice@example.com')).not.toBe(emailIdentity('alice@example.org'));
    expect(emailIdentity('+tag@example.com')).toBe('+tag@example.com');
  });
});
