import { distributionInfo, envelope, errorBody } from '@resi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentAuth } from '../../shared/request-context';
import type { DistributionRepository } from './distribution-repository';

export const distributionRoutes: FastifyPluginAsyncZod<{ distribution: DistributionRepository; publicUrl: string }> = async (app, { distribution, publicUrl }) => {
  app.get(
    '/distribution/info',
    { config: { access: 'distributor' }, schema: { tags: ['distribution'], response: { 200: envelope(distributionInfo), 401: errorBody, 403: errorBody } } },
    async (request) => {
      const { user } = currentAuth(request);
      return {
        data: {
          inviteCode: user.invite_code,
          inviteLink: `${publicUrl.replace(/\/$/, '')}/manage/user/register?invite=${user.invite_code}`,
          referrals: await distribution.referralCount(user.id),
        },
      };
    },
  );
};
