import { z } from 'zod';

export const distributionInfo = z.object({
  inviteCode: z.string(),
  inviteLink: z.string(),
  referrals: z.number().int(),
});
export type DistributionInfo = z.infer<typeof distributionInfo>;
