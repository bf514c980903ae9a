import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { ModuleDeps } from '../module-deps';
import { AuthService } from './auth-service';
import { CaptchaService } from './captcha-service';
import { LoginAddressRepository } from './login-address-repository';
import { LoginLogRepository } from './login-log-repository';
import { MailCodeService } from './mail-code-service';
import { authRoutes } from './routes';
import { SessionService } from './session-service';
import { UserRepository } from './user-repository';

declare module 'fastify' {
  interface FastifyInstance {
    /** Bearer sessions: the access guard (http/access-guard.ts) signs requests in with them, the auth routes issue and end them. */
    sessions: SessionService;
  }
}

/** The session service on the app itself, where the access guard finds it before any route is registered. */
export const authSessions = fp<ModuleDeps>(
  async (app, { db, clock, storeVersion }) => {
    app.decorate('sessions', new SessionService(db, clock, storeVersion));
  },
  { name: 'auth-sessions' },
);

/** Registration, login, captchas, mail codes and the signed-in user's own account. */
export const authModule: FastifyPluginAsync<ModuleDeps> = async (app, { config, db, clock, mailer }) => {
  const users = new UserRepository(db);
  const captchas = new CaptchaService(db, clock, config.APP_SECRET, config.CAPTCHA_TEST_ANSWER);
  const mailCodes = new MailCodeService(db, clock, config.APP_SECRET, mailer, config.APP_NAME);
  const auth = new AuthService(db, clock, users, app.sessions, captchas, mailCodes, new LoginLogRepository(db), new LoginAddressRepository(db));
  await app.register(authRoutes, { auth, captchas, mailCodes, sessions: app.sessions });
};
