import type { UpdateInfoBody, UserInfo } from '@se/core';
import { get, post } from './client.ts';

export const getUserInfo = (userId?: number) =>
  get<UserInfo>('/api/v1/user/get-info', { user_id: userId && userId > 0 ? userId : undefined });

export const updateUserInfo = (
  body: Pick<UpdateInfoBody, 'company_name' | 'company_address' | 'phone_num'>,
) => post<UserInfo>('/api/v1/user/update-info', body);
