import { z } from 'zod';
import { payMethod } from './commerce';

/*
 * Request bodies are strict (unknown fields are a 400). Messages are i18n keys under `validation.*`;
 * the server and the web translate them, so one rule has one text per language.
 */

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 64;
export const MAIL_CODE_LENGTH = 6;
export const MAIL_PURPOSES = ['register', 'reset', 'change-pass'] as const;
export type MailPurpose = (typeof MAIL_PURPOSES)[number];

export const emailField = z
  .string({ error: 'validation.email' })
  .trim()
  .max(254, { error: 'validation.email' })
  .toLowerCase()
  .pipe(z.email({ error: 'validation.email' }));

/** Optional login name: letters, digits and underscore; never an `@`, so it cannot be confused with an email. */
export const accountField = z
  .string({ error: 'validation.account' })
  .trim()
  .regex(/^[A-Za-z0-9_]{4,32}$/, { error: 'validation.account' });

export const passwordField = z
  .string({ error: 'validation.password' })
  .min(PASSWORD_MIN, { error: 'validation.password' })
  .max(PASSWORD_MAX, { error: 'validation.password' })
  .regex(/[A-Za-z]/, { error: 'validation.password' })
  .regex(/[0-9]/, { error: 'validation.password' });

export const mailCodeField = z.string({ error: 'validation.mailCode' }).trim().regex(/^\d{6}$/, { error: 'validation.mailCode' });
export const captchaIdField = z.string({ error: 'validation.captcha' }).min(1, { error: 'validation.captcha' }).max(64);
export const captchaField = z.string({ error: 'validation.captcha' }).trim().min(1, { error: 'validation.captcha' }).max(12);
const channelPart = z.string().trim().max(64, { error: 'validation.channel' });

export const captchaResponse = z.object({ id: z.string(), svg: z.string() });

export const sendMailCodeBody = z.strictObject({
  email: emailField,
  purpose: z.enum(MAIL_PURPOSES, { error: 'validation.purpose' }),
  captchaId: captchaIdField,
  captcha: captchaField,
});

export const registerBody = z.strictObject({
  email: emailField,
  account: accountField.optional(),
  password: passwordField,
  code: mailCodeField,
  inviteCode: z.string().trim().max(32, { error: 'validation.inviteCode' }).optional(),
  channelKey: channelPart.optional(),
  channelValue: channelPart.optional(),
  agree: z.literal(true, { error: 'validation.agree' }),
});

export const loginBody = z.strictObject({
  account: z.string({ error: 'validation.loginAccount' }).trim().min(1, { error: 'validation.loginAccount' }).max(254),
  password: z.string({ error: 'validation.password' }).min(1, { error: 'validation.password' }).max(PASSWORD_MAX),
  captchaId: captchaIdField,
  captcha: captchaField,
});

export const changePassBody = z.strictObject({
  oldPassword: z.string({ error: 'validation.password' }).min(1, { error: 'validation.password' }).max(PASSWORD_MAX),
  newPassword: passwordField,
  code: mailCodeField,
});

export const resetPassBody = z.strictObject({
  email: emailField,
  code: mailCodeField,
  newPassword: passwordField,
});

export const userDto = z.object({
  id: z.number().int(),
  email: z.string(),
  account: z.string().nullable(),
  role: z.enum(['customer', 'admin']),
  isDistributor: z.boolean(),
  status: z.enum(['active', 'disabled']),
  inviteCode: z.string(),
  lang: z.string(),
  createdAt: z.string(),
  lastLoginAt: z.string().nullable(),
});
export type UserDto = z.infer<typeof userDto>;

/** Login and register put the token at the top level beside `data` (docs/api.md#requests-and-responses). */
export const authResponse = z.object({ data: userDto, token: z.string(), message: z.string() });

/** The operator's own pages beside the built-in Learn and Toolbox pages; null when not configured. */
export const siteLinks = z.object({
  knowledgeBase: z.string().nullable(),
  faq: z.string().nullable(),
  blog: z.string().nullable(),
  toolbox: z.string().nullable(),
});
export type SiteLinks = z.infer<typeof siteLinks>;

export const siteResponse = z.object({
  appName: z.string(),
  supportUrl: z.string(),
  tutorialUrl: z.string(),
  links: siteLinks,
  /** The methods checkout offers now, in its order. */
  payMethods: z.array(payMethod),
});
export type SiteInfo = z.infer<typeof siteResponse>;

export type SendMailCodeBody = z.infer<typeof sendMailCodeBody>;
export type RegisterBody = z.infer<typeof registerBody>;
export type LoginBody = z.infer<typeof loginBody>;
export type ChangePassBody = z.infer<typeof changePassBody>;
export type ResetPassBody = z.infer<typeof resetPassBody>;
