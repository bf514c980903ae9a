import { z } from 'zod';
import { userDto } from './auth';
import { pageQuery } from './envelope';

export const manageUserQuery = pageQuery.extend({
  email: z.string().trim().max(254).optional(),
  role: z.enum(['customer', 'admin']).optional(),
  status: z.enum(['active', 'disabled']).optional(),
});
export type ManageUserQuery = z.infer<typeof manageUserQuery>;

/** What an admin sees of a user: the user's own view plus attribution. */
export const adminUserDto = userDto.extend({
  referrerId: z.number().int().nullable(),
  channelKey: z.string().nullable(),
  channelValue: z.string().nullable(),
});
export type AdminUserDto = z.infer<typeof adminUserDto>;
