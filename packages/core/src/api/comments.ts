import { z } from 'zod';
import { COMMENT_LEVELS } from '../air.ts';
import { boolField, dateTimeField, idField, intField, keywordsField, pageQuery } from './envelope.ts';

/**
 * Reviews (SPEC §3 "Comment"): public ratings of a toilet from /add-comment (source 'qr')
 * and ratings from evaluation terminals (source 'terminal', equipment_id set).
 */
export const COMMENT_API = {
  /** Public: what the review page shows about the toilet. */
  toiletCard: '/api/v1/comment/toilet-card',
  /** Public: publish a review. */
  add: '/api/v1/comment/add-comment',
  list: '/api/v1/comment/comments',
  stats: '/api/v1/comment/stats',
  /** Hide (is_delete true) or restore (false) one review. */
  update: '/api/v1/comment/update-comment',
} as const;

/** The four complaint ticks (SPEC §3), in the order the review page shows them. */
export const COMMENT_FLAGS = {
  badattitude: '态度差',
  inefficiency: '效率低',
  poorsanitary: '卫生差',
  smelly: '有异味',
} as const;
export type CommentFlag = keyof typeof COMMENT_FLAGS;
export const COMMENT_FLAG_KEYS = Object.keys(COMMENT_FLAGS) as CommentFlag[];

export const COMMENT_SOURCES = { qr: '扫码', terminal: '评价器' } as const;
export type CommentSource = keyof typeof COMMENT_SOURCES;

/** The optional sex a visitor gives: 0 not given. */
export const COMMENT_SEX = { 0: '未填', 1: '男', 2: '女' } as const;

/** Longest review text, counted in characters after sanitising. */
export const COMMENT_MAX_CHARS = 200;

/**
 * Abuse limits of the public review page, per toilet per rolling hour: per visitor (the
 * random id the page keeps in localStorage) and per client IP.
 */
export const COMMENT_LIMITS = { perVisitorPerHour: 3, perIpPerHour: 20 } as const;

/** The level word of a star count (SPEC §4: 无 极差 差 中 良 优 = 0..5). */
export function commentLevel(stars: number): string {
  const i = Math.round(stars);
  return COMMENT_LEVELS[i] ?? COMMENT_LEVELS[0];
}

/** Average of a toilet's stars to one decimal; 0 when nobody rated it. */
export function commentStarAverage(sum: number, count: number): number {
  return count > 0 ? Math.round((sum / count) * 10) / 10 : 0;
}

// Left after whitespace is collapsed: control characters, format characters (zero-width
// spaces, bidi overrides that could disguise text; U+200D stays, emoji sequences need it),
// private-use characters and unpaired surrogates.
const INVISIBLE = /[\p{Cc}\p{Co}\uD800-\uDFFF]|(?!\u200D)\p{Cf}/gu;
const TAG = /<\/?[A-Za-z!][^<>]*>/g;

/**
 * Review text as operators see it: HTML tags removed, line breaks and runs of whitespace
 * collapsed to one space, control and invisible characters dropped, trimmed.
 */
export function sanitizeCommentText(raw: string): string {
  return raw.replace(TAG, ' ').replace(/\s+/g, ' ').replace(INVISIBLE, '').replace(/ {2,}/g, ' ').trim();
}

/** Length in characters (code points), as a person counts them. */
export const charCount = (s: string) => Array.from(s).length;

const starLevel = intField('星级').pipe(z.number().int().min(1, '请选择 1–5 星').max(5, '请选择 1–5 星'));

/**
 * A toilet's public id: the one in its QR code. Any text is read; one that is not a public
 * id (an internal number, a guess) is answered like an unknown toilet, never with a hint.
 */
const publicToiletId = z
  .string({ error: '缺少厕所编号，请扫描厕所内的二维码' })
  .trim()
  .min(1, '缺少厕所编号，请扫描厕所内的二维码')
  .max(200, '厕所不存在或已停用，请扫描厕所内的二维码');

/** The shape of a public toilet id: 16 random bytes in base64url. */
export const PUBLIC_TOILET_ID = /^[A-Za-z0-9_-]{22}$/;

export const toiletCardQuery = z.object({ toilet_id: publicToiletId });

export const toiletCard = z.object({
  /** The public id the card was asked for (the internal id is not shown to visitors). */
  toilet_id: z.string(),
  name: z.string(),
  /** Province, city, district and street in one line. */
  address: z.string(),
  star_average: z.number(),
  star_count: z.number(),
});
export type ToiletCard = z.infer<typeof toiletCard>;

export const addCommentBody = z.object({
  toilet_id: publicToiletId,
  star_level: starLevel,
  badattitude: boolField().default(false),
  inefficiency: boolField().default(false),
  poorsanitary: boolField().default(false),
  smelly: boolField().default(false),
  content: z
    .string()
    // A generous bound on the raw text before it is cleaned (pasted markup shrinks).
    .max(2000, `评价内容不能超过${COMMENT_MAX_CHARS}个字`)
    .default('')
    .transform(sanitizeCommentText)
    .refine((s) => charCount(s) <= COMMENT_MAX_CHARS, `评价内容不能超过${COMMENT_MAX_CHARS}个字`),
  sex: intField('性别').pipe(z.number().int().min(0, '性别取值无效').max(2, '性别取值无效')).default(0),
  /** The random id the review page keeps in localStorage. */
  visitor_id: z
    .string({ error: '缺少访客标识，请刷新页面后重试' })
    .trim()
    .regex(/^[A-Za-z0-9_-]{8,64}$/, '访客标识无效，请刷新页面后重试'),
});
export type AddCommentBody = z.input<typeof addCommentBody>;

export const addCommentResult = z.object({
  id: z.number(),
  star_level: z.number(),
  toilet: toiletCard,
});

/** A multi-value query field: `1,2`, repeated keys or a JSON array. */
const listOf = <T extends z.ZodType>(item: T, label: string) =>
  z.preprocess(
    (v) => {
      if (v === undefined || v === null || v === '') return undefined;
      if (Array.isArray(v)) return v.flatMap((x) => (typeof x === 'string' ? x.split(',') : [x]));
      if (typeof v === 'string') {
        const t = v.trim();
        if (t.startsWith('[')) {
          try {
            return JSON.parse(t) as unknown;
          } catch {
            return v;
          }
        }
        return t.split(',').map((s) => s.trim());
      }
      return v;
    },
    z
      .array(item, { error: `${label}取值无效` })
      .max(10, `${label}取值无效`)
      .optional(),
  );

/** The operators' filter; the export takes the same one (without paging). */
export const commentFilter = z.object({
  toilet_id: idField().optional(),
  /** One evaluation terminal's ratings. */
  equipment_id: idField().optional(),
  /** Any of these star levels (1–5). */
  star_levels: listOf(
    intField().pipe(z.number().int().min(1, '星级取值无效').max(5, '星级取值无效')),
    '星级',
  ),
  /** Reviews with any of these ticks. */
  flags: listOf(
    z.enum(COMMENT_FLAG_KEYS as [CommentFlag, ...CommentFlag[]], { error: '评价选项取值无效' }),
    '评价选项',
  ),
  source: z.enum(['qr', 'terminal'], { error: '来源取值无效' }).optional(),
  start: dateTimeField().optional(),
  end: dateTimeField().optional(),
  keywords: keywordsField(),
  /** Include hidden reviews (is_delete). */
  show_hidden: boolField().default(false),
  /** Newest first (default), or by stars. */
  sort: z.enum(['time', 'star_asc', 'star_desc'], { error: '排序方式取值无效' }).default('time'),
});
export type CommentFilter = z.output<typeof commentFilter>;

export const commentListQuery = pageQuery.extend(commentFilter.shape);

export const commentRow = z.object({
  id: z.number(),
  is_delete: z.boolean(),
  content: z.string(),
  star_level: z.number(),
  sex: z.number(),
  badattitude: z.boolean(),
  inefficiency: z.boolean(),
  poorsanitary: z.boolean(),
  smelly: z.boolean(),
  equipment_id: z.number().nullable(),
  /** The terminal's serial number for terminal ratings, else ''. */
  equipment_ser_num: z.string(),
  /** The toilet reviewed; for a terminal rating, the toilet sharing the terminal's gateway. */
  toilet_id: z.number().nullable(),
  toilet_name: z.string(),
  source: z.string(),
  created_at: z.string(),
});
export type CommentRow = z.infer<typeof commentRow>;

export const commentStats = z.object({
  count: z.number(),
  /** Average stars to two decimals; 0 when there are none. */
  average: z.number(),
  /** Reviews per star level, index 0 = 1 star … index 4 = 5 stars. */
  stars: z.array(z.number()),
  flags: z.object({
    badattitude: z.number(),
    inefficiency: z.number(),
    poorsanitary: z.number(),
    smelly: z.number(),
  }),
});
export type CommentStats = z.infer<typeof commentStats>;

export const updateCommentBody = z.object({
  id: idField(),
  is_delete: boolField(),
});
