import {
  MEDIA_API,
  MEDIA_CHUNK_TYPE,
  CODE,
  type Envelope,
  type MediaItemRow,
  type MediaKind,
  type MediaQuota,
  type MediaTextBody,
  type Page,
  type UploadState,
} from '@se/core';
import { ApiError, get, post, sendRaw } from './client.ts';

// 流媒体 content libraries: /pictures, /videos, /texts, uploads and review.

export interface MediaQuery {
  keywords?: string;
  status?: number;
  page: number;
  page_size: number;
}

const LIST: Record<MediaKind, string> = {
  picture: MEDIA_API.pictures,
  video: MEDIA_API.videos,
  text: MEDIA_API.texts,
};

export const listMedia = (kind: MediaKind, q: MediaQuery) => get<Page<MediaItemRow>>(LIST[kind], { ...q });
export const reviewQueue = (kind: MediaKind, q: MediaQuery) =>
  get<Page<MediaItemRow>>(MEDIA_API.review, { ...q, kind });
export const decideMedia = (id: number, approve: boolean, reason = '') =>
  post<MediaItemRow>(MEDIA_API.reviewDecide, { id, approve, reason }, { json: true });
export const addMediaUrl = (b: { kind: 'picture' | 'video'; name: string; url: string }) =>
  post<MediaItemRow>(MEDIA_API.addUrl, b);
export const addMediaText = (b: { name: string; text_body: MediaTextBody }) =>
  post<MediaItemRow>(MEDIA_API.addText, b, { json: true });
export const updateMediaText = (b: { id: number; name?: string; text_body?: MediaTextBody }) =>
  post<MediaItemRow>(MEDIA_API.updateText, b, { json: true });
export const renameMedia = (id: number, name: string) => post<MediaItemRow>(MEDIA_API.rename, { id, name });
export const removeMedia = (b: { id: number }) => post<null>(MEDIA_API.remove, { id: b.id });
export const mediaQuota = () => get<MediaQuota>(MEDIA_API.quota);

/** What an upload reports while it runs. */
export interface UploadProgress {
  sent: number;
  total: number;
  /** Retrying after a dropped connection. */
  retrying: boolean;
}

export interface UploadDeps {
  start: (b: {
    kind: 'picture' | 'video';
    name: string;
    size: number;
    fingerprint: string;
  }) => Promise<Envelope<UploadState>>;
  state: (id: string) => Promise<Envelope<UploadState>>;
  chunk: (
    id: string,
    offset: number,
    blob: Blob,
    onProgress: (loaded: number) => void,
    signal?: AbortSignal,
  ) => Promise<Envelope<UploadState>>;
  finish: (id: string) => Promise<Envelope<MediaItemRow>>;
  wait: (ms: number) => Promise<void>;
}

const httpDeps: UploadDeps = {
  start: (b) => post<UploadState>(MEDIA_API.uploads, b),
  state: (id) => get<UploadState>(MEDIA_API.upload, { id }),
  chunk: (id, offset, blob, onProgress, signal) =>
    sendRaw<UploadState>(
      `${MEDIA_API.uploadChunk}?id=${id}&offset=${offset}`,
      blob,
      MEDIA_CHUNK_TYPE,
      onProgress,
      signal,
    ),
  finish: (id) => post<MediaItemRow>(MEDIA_API.uploadFinish, { id }),
  wait: (ms) => new Promise((r) => setTimeout(r, ms)),
};

/** The same file chosen again (after a reload, on another try) resumes the same upload. */
export const fingerprintOf = (file: File) => `${file.name}|${file.size}|${file.lastModified}`;

/** How many times in a row a chunk may fail on the network before the upload gives up. */
export const UPLOAD_RETRIES = 8;

/**
 * Uploads `file` in chunks, resuming from what the server holds: after a dropped connection
 * it asks the server how much arrived and goes on from there (waiting longer each time);
 * a refusal (an envelope code other than 200) ends it with that envelope.
 */
export async function uploadMedia(
  file: Blob & { name: string; lastModified: number },
  kind: 'picture' | 'video',
  name: string,
  onProgress: (p: UploadProgress) => void,
  signal?: AbortSignal,
  deps: UploadDeps = httpDeps,
): Promise<Envelope<MediaItemRow | null>> {
  const started = await deps.start({ kind, name, size: file.size, fingerprint: fingerprintOf(file as File) });
  if (started.code !== CODE.ok) return { ...started, data: null };
  const { id, chunk_bytes } = started.data;
  let at = started.data.received;
  let failures = 0;
  onProgress({ sent: at, total: file.size, retrying: false });
  while (at < file.size) {
    if (signal?.aborted) throw new ApiError('aborted', 'Request aborted');
    const blob = file.slice(at, Math.min(file.size, at + chunk_bytes));
    try {
      const r = await deps.chunk(
        id,
        at,
        blob,
        (loaded) => onProgress({ sent: at + loaded, total: file.size, retrying: false }),
        signal,
      );
      if (r.code === CODE.conflict && r.data) {
        at = r.data.received; // the server holds another amount: go on from there
        continue;
      }
      if (r.code !== CODE.ok) return { ...r, data: null };
      at = r.data.received;
      failures = 0;
    } catch (err) {
      if (err instanceof ApiError && err.kind === 'aborted') throw err;
      if (++failures > UPLOAD_RETRIES) throw err;
      onProgress({ sent: at, total: file.size, retrying: true });
      await deps.wait(Math.min(30_000, 500 * 2 ** failures));
      try {
        const s = await deps.state(id);
        if (s.code === CODE.ok) at = s.data.received;
      } catch {
        /* still offline: the next chunk tries again */
      }
    }
    onProgress({ sent: at, total: file.size, retrying: false });
  }
  return deps.finish(id);
}
