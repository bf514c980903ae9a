import type { ErrorCode } from '@resi/contract';

const STATUS: Partial<Record<ErrorCode, number>> = {
  VALIDATION_FAILED: 400,
  UNAUTHENTICATED: 401,
  EXPORT_TICKET_INVALID: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  RATE_LIMITED: 429,
  MAIL_CODE_TOO_SOON: 429,
  MAIL_CODE_TOO_MANY: 429,
  LOGIN_LOCKED: 429,
  LOGIN_GUARDED: 429,
  EMAIL_TAKEN: 409,
  ACCOUNT_TAKEN: 409,
  ACCOUNT_DISABLED: 403,
  CATALOGUE_DUPLICATE: 409,
  PROXY_USERNAME_TAKEN: 409,
  PROXY_ACCOUNT_LIMIT: 409,
  ORDER_NOT_PENDING: 409,
  ORDER_NOT_CANCELLABLE: 409,
  ORDER_OPEN_LIMIT: 409,
  USER_UNKNOWN: 404,
  GOODS_UNKNOWN: 404,
  PAYMENT_START_FAILED: 502,
  OUT_OF_STOCK: 409,
  STATIC_RELEASED: 409,
  STATIC_EXPIRED: 409,
  STATIC_REPLACEMENTS_USED: 409,
  STATIC_UNPAID_LIMIT: 409,
  STATIC_UNPAID_SHARE: 409,
  ORDER_NOT_PAID: 409,
  ORDER_ALREADY_REFUNDED: 409,
  ADMIN_SELF: 409,
  ADMIN_LAST: 409,
  PAYOFF_OPEN: 409,
  PAYOFF_STATE: 409,
  REFERRAL_DISABLED_BY_ADMIN: 403,
  ALLOWLIST_TAKEN: 409,
  ALLOWLIST_FULL: 409,
  ALLOWLIST_ADDRESS: 400,
  EXTRACT_NOT_ALLOWLISTED: 403,
  EXTRACT_KEY_INVALID: 401,
  EXTRACT_PORTS_BUSY: 503,
  NO_TRAFFIC: 402,
  INTERNAL: 500,
};

/** The one error a handler throws: a stable code, its HTTP status and parameters for the localized text. */
export class AppError extends Error {
  readonly statusCode: number;
  constructor(
    readonly code: ErrorCode,
    readonly params: Record<string, string | number> = {},
    statusCode?: number,
  ) {
    super(code);
    this.statusCode = statusCode ?? STATUS[code] ?? 400;
  }
}
