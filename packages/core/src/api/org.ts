import { z } from 'zod';
import { idField } from './envelope.ts';

/**
 * Organisations (SPEC §3 "Organisation update"): a school's or a factory's own page,
 * shared by the smart campus and attendance. `user_id` is the owning manager, `root_dep_id`
 * the root of its department tree.
 */
export const ORG_API = {
  get: '/api/v1/org/get-org',
  update: '/api/v1/org/update-org',
  /** ssSuperSaled / develop: a new organisation and the account that manages it. */
  add: '/api/v1/org/add-org',
  /** The manager uploads the logo: PNG/JPEG/WebP up to ORG_LOGO_MAX_BYTES, re-encoded on the server. */
  uploadLogo: '/api/v1/org/upload-logo',
  /** The stored logo (an image, never run as a page). */
  logo: '/api/v1/org/logo',
} as const;

export const orgRow = z.object({
  id: z.number(),
  is_delete: z.boolean(),
  name: z.string(),
  slogan: z.string(),
  logo: z.string(),
  introduction: z.string(),
  org_url: z.string(),
  email: z.string(),
  address: z.string(),
  contact: z.string(),
  root_dep_id: z.number().nullable(),
  user_id: z.number().nullable(),
});
export type OrgRow = z.infer<typeof orgRow>;

const text = (label: string, max: number) => z.string().trim().max(max, `${label}不能超过${max}个字符`);

/** SPEC §5's URL pattern: http, https, ftp, rtsp, mms. */
const ORG_URL = /^(https?|ftp|rtsp|mms):\/\/[^\s]+$/i;

export const getOrgQuery = z.object({ id: idField().optional() });

/** What a manager edits on the organisation page (the logo is uploaded on its own). */
export const updateOrgBody = z.object({
  id: idField(),
  name: text('名称', 60).min(1, '请填写名称').optional(),
  slogan: text('标语', 100).optional(),
  introduction: text('简介', 2000).optional(),
  org_url: text('网址', 300)
    .refine((v) => v === '' || ORG_URL.test(v), '网址格式不正确')
    .optional(),
  email: text('邮箱', 254)
    .refine((v) => v === '' || z.email().safeParse(v).success, '邮箱格式不正确')
    .optional(),
  address: text('地址', 200).optional(),
  contact: text('联系方式', 100).optional(),
});

export const addOrgBody = z.object({
  name: text('名称', 60).min(1, '请填写名称'),
  /** The organisation's manager (an account the caller administers, in no organisation yet). */
  user_id: idField(),
  slogan: text('标语', 100).default(''),
});

export const ORG_LOGO_MAX_BYTES = 2 * 1024 * 1024;
export const orgIdQuery = z.object({ id: idField() });
