import { FIELD_LABELS } from '@se/core';
import type { z } from 'zod';
import { AppError } from '../errors.ts';
import { CODE } from '@se/core';

const CJK = /[\u3400-\u9fff]/;

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let v = input;
  for (const k of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[k];
  }
  return v;
}

/** One Chinese sentence for one zod issue, naming the field. */
export function issueMessage(issue: z.core.$ZodIssue, input: unknown): string {
  const key = issue.path.filter((p) => typeof p === 'string').at(-1) as string | undefined;
  const label = key ? (FIELD_LABELS[key] ?? key) : '请求内容';
  if (CJK.test(issue.message)) return issue.message;
  const value = valueAt(input, issue.path);
  switch (issue.code) {
    case 'invalid_type':
      if (value === undefined || value === null || value === '') return `${label}不能为空`;
      return `${label}格式不正确`;
    case 'too_small':
      if (issue.origin === 'string') {
        return Number(issue.minimum) <= 1 ? `${label}不能为空` : `${label}长度不能少于${issue.minimum}个字符`;
      }
      if (issue.origin === 'array') return `${label}至少需要${issue.minimum}项`;
      return `${label}不能小于${issue.minimum}`;
    case 'too_big':
      if (issue.origin === 'string') return `${label}长度不能超过${issue.maximum}个字符`;
      if (issue.origin === 'array') return `${label}最多${issue.maximum}项`;
      return `${label}不能大于${issue.maximum}`;
    case 'invalid_format':
      return issue.format === 'email' ? `${label}不是有效的邮箱` : `${label}格式不正确`;
    case 'invalid_value':
      return `${label}的取值无效`;
    default:
      return `${label}输入数据不合法`;
  }
}

/** PostgreSQL text cannot hold NUL; no field of ours has a use for control characters. */
function hasNul(v: unknown, depth = 0): boolean {
  if (typeof v === 'string') return v.includes('\u0000');
  if (depth > 8 || v === null || typeof v !== 'object') return false;
  return Object.values(v as Record<string, unknown>).some((x) => hasNul(x, depth + 1));
}

/** Parses `input` with `schema` or throws a 400 AppError naming every bad field. */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  if (hasNul(input)) throw new AppError(CODE.badRequest, '请求内容包含非法字符');
  const r = schema.safeParse(input ?? {});
  if (r.success) return r.data;
  const fields = r.error.issues.map((i) => ({
    field: i.path.map(String).join('.'),
    message: issueMessage(i, input),
  }));
  throw new AppError(CODE.badRequest, fields[0]!.message, { fields });
}
