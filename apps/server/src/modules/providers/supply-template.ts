import { MASK } from './provider-upstreams';

const CREDENTIALS = /:\/\/([^:@/]*):([^@/]*)@/;

/** In production direct egress is off whatever is stored (the gateway ignores it too): what is in force. */
export function inForce<T extends { directEgress: boolean }>(s: T, production: boolean): T {
  return production ? { ...s, directEgress: false } : s;
}

/** A provider template holds the provider's password: answers and audit rows carry only its shape. */
export function maskTemplate(template: string): string {
  return template.replace(CREDENTIALS, `://$1:${MASK}@`);
}

/** The template's password is shown masked; saving the masked form back keeps the stored password. */
export function keepMaskedPassword(next: string, stored: string): string {
  const m = CREDENTIALS.exec(next);
  if (m?.[2] !== MASK) return next;
  const old = CREDENTIALS.exec(stored)?.[2] ?? '';
  return next.replace(CREDENTIALS, `://$1:${old}@`);
}
