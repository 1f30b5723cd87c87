import { z } from 'zod';
import { boolField, idField } from './envelope.ts';

export const TEXT_MAX = 200;

export const getInfoQuery = z.object({ user_id: idField().optional() });

/** User info (SPEC §3): empty strings when nothing valid is stored. The variant adds name and phone. */
export const userInfo = z.object({
  id: z.number(),
  is_delete: z.boolean(),
  company_name: z.string(),
  company_address: z.string(),
  user_name: z.string(),
  phone_num: z.string(),
});
export type UserInfo = z.infer<typeof userInfo>;

export const phoneNum = z
  .string()
  .trim()
  .max(20, '联系电话不能超过20位')
  .regex(/^\d*$/, '联系电话只能包含数字');

/** POST /api/v1/user/update-info: both variants; user_name is read-only and ignored. */
export const updateInfoBody = z.object({
  id: idField().optional(),
  user_id: idField().optional(),
  is_delete: boolField().optional(),
  company_name: z.string().trim().max(TEXT_MAX, `公司名称不能超过${TEXT_MAX}个字符`).optional(),
  company_address: z.string().trim().max(TEXT_MAX, `公司地址不能超过${TEXT_MAX}个字符`).optional(),
  user_name: z.string().optional(),
  phone_num: phoneNum.optional(),
});
export type UpdateInfoBody = z.infer<typeof updateInfoBody>;
