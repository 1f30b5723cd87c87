import type { Envelope, MediaItemRow, UploadState } from '@se/core';
import { describe, expect, it } from 'vitest';
import { ApiError } from './client.ts';
import { UPLOAD_RETRIES, uploadMedia, type UploadDeps, type UploadProgress } from './media.ts';

const ok = <T>(data: T): Envelope<T> => ({ code: 200, message: '成功', data });

/**
 * A server that keeps what arrives, as the real one does (the real one is exercised in the
 * server's media tests); `drops` says which chunk calls lose the line after half their bytes.
 */
function lossyServer(drops: Set<number>, chunkBytes = 10) {
  let held = new Uint8Array(0);
  let calls = 0;
  const state = (): UploadState => ({
    id: 'u1',
    kind: 'video',
    name: 'v',
    size: 0,
    received: held.length,
    chunk_bytes: chunkBytes,
  });
  const deps: UploadDeps = {
    start: async () => ok(state()),
    state: async () => ok(state()),
    chunk: async (_id, offset, blob, onProgress) => {
      const bytes = new Uint8Array(await blob.arrayBuffer());
      if (offset !== held.length) return { code: 409, message: '续传位置不一致', data: state() };
      const n = ++calls;
      const kept = drops.has(n) ? bytes.subarray(0, Math.floor(bytes.length / 2)) : bytes;
      held = new Uint8Array([...held, ...kept]);
      onProgress(kept.length);
      if (drops.has(n)) throw new ApiError('network', 'Network Error');
      return ok(state());
    },
    finish: async () => ok({ id: 1 } as MediaItemRow),
    wait: async () => {},
  };
  return { deps, held: () => held };
}

const fileOf = (n: number) => {
  const bytes = Uint8Array.from({ length: n }, (_, i) => i % 251);
  return Object.assign(new Blob([bytes]), { name: 'v.mp4', lastModified: 1 });
};

describe('uploadMedia', () => {
  it('resumes from what the server holds after connections drop mid-chunk', async () => {
    const file = fileOf(95);
    const server = lossyServer(new Set([2, 3, 7]));
    const seen: UploadProgress[] = [];
    const r = await uploadMedia(file, 'video', 'v', (p) => seen.push(p), undefined, server.deps);
    expect(r.code).toBe(200);
    expect([...server.held()]).toEqual([...new Uint8Array(await file.arrayBuffer())]);
    expect(seen.some((p) => p.retrying)).toBe(true);
    expect(seen.at(-1)).toMatchObject({ sent: 95, total: 95 });
  });

  it('gives up after too many failures in a row, and stops on a refusal', async () => {
    const always = lossyServer(new Set(Array.from({ length: 100 }, (_, i) => i + 1)), 1000);
    await expect(uploadMedia(fileOf(50), 'video', 'v', () => {}, undefined, always.deps)).rejects.toThrow(
      'Network Error',
    );
    expect(UPLOAD_RETRIES).toBeGreaterThan(0);

    const refusing = lossyServer(new Set());
    refusing.deps.start = async () => ({ code: 413, message: '存储空间不足', data: null as never });
    const r = await uploadMedia(fileOf(10), 'video', 'v', () => {}, undefined, refusing.deps);
    expect(r).toMatchObject({ code: 413, message: '存储空间不足', data: null });
  });
});
