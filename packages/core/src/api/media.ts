import { z } from 'zod';
import { URL_PATTERN } from '../format.ts';
import { idField, intField, keywordsField, pageOf, pageQuery } from './envelope.ts';

/**
 * Media content libraries (issue 17, SPEC §2 /pictures /texts /videos): pictures, videos
 * and text notices a media user (SPEC §6, media 16) prepares for their screens, reviewed
 * (审核) before any playlist may use them. Table `media_items` (migration 0034).
 */
export const MEDIA_API = {
  pictures: '/api/v1/media/pictures',
  videos: '/api/v1/media/videos',
  texts: '/api/v1/media/texts',
  /** One item by id (any kind). */
  item: '/api/v1/media/items/item',
  /** Add a URL source (picture or video the player fetches itself). */
  addUrl: '/api/v1/media/items/url',
  addText: '/api/v1/media/texts/add',
  updateText: '/api/v1/media/texts/update',
  rename: '/api/v1/media/items/rename',
  remove: '/api/v1/media/items/delete',
  /** The stored file, its thumbnail or poster (safe serving: attachment/sandbox, Range). */
  file: '/api/v1/media/items/file',
  thumb: '/api/v1/media/items/thumb',
  /** Chunked resumable uploads. */
  uploads: '/api/v1/media/uploads',
  /** Where an upload stands (bytes the server holds). */
  upload: '/api/v1/media/uploads/state',
  /** One chunk: raw bytes (application/x-media-chunk), `?id=&offset=`; streamed to disk. */
  uploadChunk: '/api/v1/media/uploads/chunk',
  uploadFinish: '/api/v1/media/uploads/finish',
  uploadCancel: '/api/v1/media/uploads/cancel',
  /** Quota and usage of the caller (or a managed user). */
  quota: '/api/v1/media/uploads/quota',
  setQuota: '/api/v1/media/uploads/set-quota',
  /** Review (审核): the reviewer's queue and decisions. */
  review: '/api/v1/media/review',
  reviewDecide: '/api/v1/media/review/decide',
} as const;

export const MEDIA_KINDS = { picture: '图片', video: '视频', text: '文字' } as const;
export type MediaKind = keyof typeof MEDIA_KINDS;
export const MEDIA_KIND_KEYS = Object.keys(MEDIA_KINDS) as MediaKind[];

/** Review status (审核) of an item: only APPROVED items may be scheduled. */
export const MEDIA_STATUS = { pending: 0, approved: 1, rejected: 2 } as const;
export type MediaStatus = (typeof MEDIA_STATUS)[keyof typeof MEDIA_STATUS];
export const MEDIA_STATUS_LABELS: Record<MediaStatus, string> = { 0: '待审核', 1: '已通过', 2: '已驳回' };

/** Whether an item may go into a playlist or schedule. */
export const isSchedulable = (item: { status: number; is_delete?: boolean }) =>
  item.status === MEDIA_STATUS.approved && !item.is_delete;

/** What the server accepts, by the bytes (the name and the browser's type are not trusted). */
export const MEDIA_PICTURE_MIMES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const;
export const MEDIA_VIDEO_MIMES = ['video/mp4', 'video/webm'] as const;
/** Codecs a player decodes: H.264 / H.265 with AAC in MP4; VP8 / VP9 / AV1 with Opus / Vorbis in WebM. */
export const MEDIA_VIDEO_CODECS = { mp4: ['h264', 'hevc'], webm: ['vp8', 'vp9', 'av1'] } as const;
export const MEDIA_AUDIO_CODECS = { mp4: ['aac', 'mp3'], webm: ['opus', 'vorbis'] } as const;

export const MEDIA_LIMITS = {
  /** Largest picture upload. */
  pictureBytes: 30 * 1024 * 1024,
  /** Largest picture in pixels (width × height): beyond is a decompression bomb. */
  picturePixels: 50_000_000,
  /** Largest video upload. */
  videoBytes: 2 * 1024 * 1024 * 1024,
  /** Longest side of a player-decodable video. */
  videoMaxSide: 4096,
  /** Chunk size the web client sends (the server accepts any up to chunkMaxBytes). */
  chunkBytes: 8 * 1024 * 1024,
  chunkMaxBytes: 16 * 1024 * 1024,
  /** Default storage quota per user (a user's own value in media_quotas overrides it). */
  quotaBytes: 5 * 1024 * 1024 * 1024,
  thumbSide: 320,
  nameChars: 100,
  textTitleChars: 50,
  textBodyChars: 2000,
} as const;

/** A notice as the screen shows it (media_items.text_body). */
export const mediaTextBody = z.object({
  title: z
    .string()
    .trim()
    .max(MEDIA_LIMITS.textTitleChars, `标题不能超过${MEDIA_LIMITS.textTitleChars}个字符`)
    .default(''),
  body: z
    .string()
    .trim()
    .min(1, '请输入正文')
    .max(MEDIA_LIMITS.textBodyChars, `正文不能超过${MEDIA_LIMITS.textBodyChars}个字符`),
  font_size: intField('字号')
    .pipe(z.number().int().min(12, '字号最小为12').max(200, '字号最大为200'))
    .default(48),
  color: z
    .string()
    .trim()
    .regex(/^#[0-9a-fA-F]{6}$/, '文字颜色格式应为 #RRGGBB')
    .default('#ffffff'),
  background: z
    .string()
    .trim()
    .regex(/^#[0-9a-fA-F]{6}$/, '背景颜色格式应为 #RRGGBB')
    .default('#000000'),
  /** Ticker speed in pixels per second; 0 = static. */
  scroll_speed: intField('滚动速度')
    .pipe(z.number().int().min(0, '滚动速度不能小于0').max(500, '滚动速度不能超过500'))
    .default(0),
});
export type MediaTextBody = z.infer<typeof mediaTextBody>;

export const mediaName = z
  .string({ error: '请输入名称' })
  .trim()
  .min(1, '请输入名称')
  .max(MEDIA_LIMITS.nameChars, `名称不能超过${MEDIA_LIMITS.nameChars}个字符`);

/** A URL source: SPEC §5's pattern (http, https, ftp, rtsp, mms). The server never fetches it. */
export const mediaUrl = z
  .string({ error: '请输入地址' })
  .trim()
  .max(1000, '地址不能超过1000个字符')
  .regex(URL_PATTERN, '地址格式不正确，仅支持 http、https、ftp、rtsp、mms 地址');

export const mediaItemRow = z.object({
  id: z.number(),
  user_id: z.number(),
  user_name: z.string(),
  kind: z.enum(['picture', 'video', 'text']),
  name: z.string(),
  status: z.number(),
  reject_reason: z.string(),
  reviewed_by: z.number().nullable(),
  reviewer_name: z.string().nullable(),
  reviewed_at: z.string().nullable(),
  url: z.string().nullable(),
  /** True when the item is a stored file (served at MEDIA_API.file). */
  stored: z.boolean(),
  has_thumb: z.boolean(),
  /** Signed links (no session header needed) for previews: the file and its thumbnail/poster. */
  file_url: z.string().nullable(),
  thumb_url: z.string().nullable(),
  mime: z.string(),
  size: z.number(),
  width: z.number().nullable(),
  height: z.number().nullable(),
  duration_ms: z.number().nullable(),
  codec: z.string(),
  sha256: z.string(),
  text_body: mediaTextBody.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type MediaItemRow = z.infer<typeof mediaItemRow>;

export const mediaListQuery = pageQuery.extend({
  keywords: keywordsField(),
  status: intField('审核状态').pipe(z.number().int().min(0).max(2)).optional(),
  user_id: idField().optional(),
});
export type MediaListQuery = z.infer<typeof mediaListQuery>;
export const mediaPage = pageOf(mediaItemRow);

export const mediaReviewQuery = mediaListQuery.extend({
  kind: z.enum(['picture', 'video', 'text']).optional(),
});

export const addUrlBody = z.object({
  kind: z.enum(['picture', 'video'], { error: '类型只能是图片或视频' }),
  name: mediaName,
  url: mediaUrl,
  target_user_id: idField().optional(),
});
export const addTextBody = z.object({
  name: mediaName,
  text_body: mediaTextBody,
  target_user_id: idField().optional(),
});
export const updateTextBody = z.object({
  id: idField(),
  name: mediaName.optional(),
  text_body: mediaTextBody.optional(),
});
export const renameBody = z.object({ id: idField(), name: mediaName });
export const removeBody = z.object({ id: idField() });
export const reviewDecideBody = z
  .object({
    id: idField(),
    approve: z.boolean({ error: '请选择通过或驳回' }),
    reason: z.string().trim().max(200, '驳回原因不能超过200个字符').default(''),
  })
  .refine((b) => b.approve || b.reason.length > 0, { message: '请填写驳回原因', path: ['reason'] });

/** Start (or find again) a chunked upload. The same fingerprint resumes the same upload. */
export const startUploadBody = z.object({
  kind: z.enum(['picture', 'video'], { error: '类型只能是图片或视频' }),
  name: mediaName,
  size: intField('文件大小').pipe(
    z.number().int().min(1, '文件为空').max(MEDIA_LIMITS.videoBytes, '文件不能超过2GB'),
  ),
  /** Client-side identity of the file (name, size, mtime) so a re-selected file resumes. */
  fingerprint: z.string().trim().min(1).max(200),
  target_user_id: idField().optional(),
});
export const uploadState = z.object({
  id: z.string(),
  kind: z.enum(['picture', 'video']),
  name: z.string(),
  size: z.number(),
  /** Bytes the server holds: the client sends from here. */
  received: z.number(),
  chunk_bytes: z.number(),
});
export type UploadState = z.infer<typeof uploadState>;

export const uploadIdQuery = z.object({ id: z.string().regex(/^[0-9a-f]{32}$/, '上传编号不正确') });
export const uploadChunkQuery = uploadIdQuery.extend({
  offset: intField('偏移').pipe(z.number().int().min(0)),
});
export const itemIdQuery = z.object({ id: idField() });
/** A signed media link (the signature is the credential). */
export const mediaLinkQuery = z.object({
  id: idField(),
  expires: intField().pipe(z.number().int().min(0)),
  sig: z.string().max(100),
  /** Ask for an attachment (download) rather than an inline preview. */
  download: z.enum(['0', '1']).optional(),
});
export const quotaQuery = z.object({ target_user_id: idField().optional() });
export const setQuotaBody = z.object({
  target_user_id: idField(),
  quota_mb: intField('配额').pipe(z.number().int().min(0, '配额不能小于0').max(10_000_000)),
});
export const MEDIA_CHUNK_TYPE = 'application/x-media-chunk';

export const mediaQuota = z.object({ used: z.number(), quota: z.number(), items: z.number() });
export type MediaQuota = z.infer<typeof mediaQuota>;
