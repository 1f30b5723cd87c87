import { USER_API } from '@se/core';
import type { UpdateInfoBody, UserInfo, UserRow } from '@se/core';
import { get, post } from './client.ts';

export const getUserInfo = (userId?: number) =>
  get<UserInfo>(USER_API.getInfo, { user_id: userId && userId > 0 ? userId : undefined });

/** The profile dialog's save: its fields as SPEC §7's `user_info` object. */
export const updateUserInfo = (
  userInfo: Pick<UpdateInfoBody, 'company_name' | 'company_address' | 'phone_num'>,
) => post<UserInfo>(USER_API.updateInfo, { user_info: userInfo }, { json: true });

/** The owner confirms its pending e-mail with the code mailed to it. */
export const confirmEmail = (code: string) => post<UserRow>(USER_API.confirmEmail, { code });
