import type { UpdateInfoBody, UserInfo, UserRow } from '@se/core';
import { get, post } from './client.ts';

export const getUserInfo = (userId?: number) =>
  get<UserInfo>('/api/v1/user/get-info', { user_id: userId && userId > 0 ? userId : undefined });

export const updateUserInfo = (
  body: Pick<UpdateInfoBody, 'company_name' | 'company_address' | 'phone_num'>,
) => post<UserInfo>('/api/v1/user/update-info', body);

/** The owner confirms its pending e-mail with the code mailed to it. */
export const confirmEmail = (code: string) => post<UserRow>('/api/v1/user/confirm-email', { code });
