/** Mailboxes that ignore dots in the local part, so `a.b@gmail.com` and `ab@gmail.com` reach one person. */
const DOTLESS_DOMAINS = new Set(['gmail.com', 'googlemail.com']);

/**
 * The mailbox an address delivers to, as far as it can be told from the address alone: lower-cased,
 * `+tag` sub-addressing dropped (RFC 5233), dots dropped where the provider ignores them, googlemail.com
 * read as gmail.com. Two addresses with the same identity are one person for the self-referral rule
 * (docs/business-rules.md#self-referral); they stay separate logins.
 */
export function emailIdentity(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 0) return email.trim().toLowerCase();
  let local = email.slice(0, at).trim().toLowerCase();
  let domain = email.slice(at + 1).trim().toLowerCase();
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  if (DOTLESS_DOMAINS.has(domain)) {
    local = local.replaceAll('.', '');
    domain = 'gmail.com';
  }
  return `${local}@${domain}`;
}
