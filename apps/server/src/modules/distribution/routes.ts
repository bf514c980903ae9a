import { distributionInfo, envelope, errorBody } from '@resi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { currentAuth } from '../../shared/request-context';

export const distributionRoutes: FastifyPluginAsyncZod<{ db: Kysely<Database>; publicUrl: string }> = async (app, { db, publicUrl }) => {
  app.get(
    '/distribution/info',
    { config: { access: 'distributor' }, schema: { tags: ['distribution'], response: { 200: envelope(distributionInfo), 401: errorBody, 403: errorBody } } },
    async (request) => {
      const { user } = currentAuth(request);
      const { n } = await db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('referrer_id', '=', user.id)
        .executeTakeFirstOrThrow();
      return {
        data: {
          inviteCode: user.invite_code,
          inviteLink: `${publicUrl.replace(/\/$/, '')}/manage/user/register?invite=${user.invite_code}`,
          referrals: Number(n),
        },
      };
    },
  );
};
