import {
  authResponse,
  captchaResponse,
  changePassBody,
  emptyBody,
  envelope,
  errorBody,
  loginBody,
  registerBody,
  resetPassBody,
  sendMailCodeBody,
  userDto,
} from '@resi/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentAuth, currentSession } from '../../shared/request-context';
import type { AuthService, ClientMeta } from './auth-service';
import type { CaptchaService } from './captcha-service';
import type { MailCodeService } from './mail-code-service';
import type { SessionService } from './session-service';
import { toUserDto } from './user-dto';
import { keyScope } from '../../shared/key-scope';

export interface AuthDeps {
  auth: AuthService;
  captchas: CaptchaService;
  mailCodes: MailCodeService;
  sessions: SessionService;
}

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody, 429: errorBody };
const ok = envelope(z.null());

const meta = (request: FastifyRequest): ClientMeta => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'] ?? null,
  lang: request.lang,
});

export const authRoutes: FastifyPluginAsyncZod<AuthDeps> = async (app, deps) => {
  app.get(
    '/captcha',
    { config: { access: 'public', limit: 'captcha' }, schema: { tags: ['auth'], response: { 200: envelope(captchaResponse) } } },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { data: await deps.captchas.create() };
    },
  );

  app.post(
    '/send-mail-code',
    {
      config: { access: 'public', limit: 'mail-code' },
      schema: { tags: ['auth'], body: sendMailCodeBody, response: { 200: envelope(z.object({ resendAfter: z.number() })), ...errors } },
    },
    async (request) => {
      const { email, purpose, captchaId, captcha } = request.body;
      await deps.captchas.consume(captchaId, captcha);
      const data = await deps.auth.sendMailCode(email, purpose, request.ip, request.lang);
      return { data, message: request.t('messages.mailCodeSent', { email }) };
    },
  );

  app.post(
    '/register',
    { config: { access: 'public', limit: 'register' }, schema: { tags: ['auth'], body: registerBody, response: { 200: authResponse, ...errors } } },
    async (request) => {
      const { user, token } = await deps.auth.register(request.body, meta(request));
      return { data: toUserDto(user), token, message: request.t('messages.registered') };
    },
  );

  app.post(
    '/login',
    // attachValidation: a refused body still reaches the handler, to be logged before it is refused.
    { config: { access: 'public', limit: 'login' }, attachValidation: true, schema: { tags: ['auth'], body: loginBody, response: { 200: authResponse, ...errors } } },
    async (request) => {
      if (request.validationError) {
        await deps.auth.logInvalidLogin(request.body, meta(request));
        throw request.validationError;
      }
      const { user, token } = await deps.auth.login(request.body, meta(request));
      return { data: toUserDto(user), token, message: request.t('messages.loggedIn') };
    },
  );

  app.post(
    '/logout',
    { config: { access: 'customer' }, schema: { tags: ['auth'], body: emptyBody, response: { 200: ok, ...errors } } },
    async (request) => {
      await deps.sessions.revoke(currentSession(request).sessionId);
      return { data: null, message: request.t('messages.loggedOut') };
    },
  );

  app.get(
    '/user',
    { config: { access: 'customer' }, schema: { security: keyScope('read'), tags: ['auth'], response: { 200: envelope(userDto), ...errors } } },
    async (request) => ({ data: toUserDto(currentAuth(request).user) }),
  );

  app.post(
    '/user/change-pass',
    { config: { access: 'customer' }, schema: { tags: ['auth'], body: changePassBody, response: { 200: ok, ...errors } } },
    async (request) => {
      await deps.auth.changePassword(currentSession(request), request.body);
      return { data: null, message: request.t('messages.passwordChanged') };
    },
  );

  app.post(
    '/reset-pass',
    { config: { access: 'public', limit: 'reset-pass' }, schema: { tags: ['auth'], body: resetPassBody, response: { 200: ok, ...errors } } },
    async (request) => {
      await deps.auth.resetPassword(request.body, request.ip);
      return { data: null, message: request.t('messages.passwordReset') };
    },
  );
};
