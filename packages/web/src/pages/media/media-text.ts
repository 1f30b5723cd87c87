import {
  MEDIA_STATUS,
  MEDIA_STATUS_LABELS,
  codecLabel,
  formatBytes,
  type MediaItemRow,
  type MediaKind,
  type MediaStatus,
} from '@se/core';

/** The library a route shows. */
export const KIND_OF_ROUTE: Record<string, MediaKind> = {
  Pictures: 'picture',
  Videos: 'video',
  Texts: 'text',
};

export const KIND_WORD: Record<MediaKind, string> = { picture: '图片', video: '视频', text: '文字' };

export const STATUS_COLOR: Record<MediaStatus, string> = { 0: 'gold', 1: 'green', 2: 'red' };

export const STATUS_OPTIONS = ([0, 1, 2] as MediaStatus[]).map((v) => ({
  value: v,
  label: MEDIA_STATUS_LABELS[v],
}));

export const isApproved = (r: Pick<MediaItemRow, 'status'>) => r.status === MEDIA_STATUS.approved;

export const bytesText = (n: number): string => formatBytes(n);

/** 1:05 / 1:02:03 */
export function durationText(ms: number): string {
  const s = Math.round(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

/** One line of what a file is: 1920×1080 · 0:30 · H.264/AAC · 12.3 MB (网络地址 for URL sources). */
export function detailText(r: MediaItemRow): string {
  if (r.kind === 'text')
    return r.text_body
      ? `字号 ${r.text_body.font_size} · ${r.text_body.scroll_speed ? `滚动 ${r.text_body.scroll_speed} 像素/秒` : '静止'}`
      : '';
  if (r.url) return '网络地址';
  const parts: string[] = [];
  if (r.width && r.height) parts.push(`${r.width}×${r.height}`);
  if (r.duration_ms) parts.push(durationText(r.duration_ms));
  if (r.codec) parts.push(r.codec.split('/').map(codecLabel).join('/'));
  parts.push(bytesText(r.size));
  return parts.join(' · ');
}

/** Picks what an upload dialog accepts, by name and type (the server checks the bytes). */
export const ACCEPT: Record<'picture' | 'video', string> = {
  picture: '.jpg,.jpeg,.png,.webp,.gif,image/jpeg,image/png,image/webp,image/gif',
  video: '.mp4,.webm,video/mp4,video/webm',
};

/** A file's name without its extension: the item's default name. */
export const baseName = (file: string) => file.replace(/\.[^.]+$/, '').slice(0, 100) || file.slice(0, 100);
