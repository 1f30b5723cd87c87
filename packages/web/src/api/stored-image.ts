import type { Envelope } from '@se/core';
import { ApiError, TIMEOUT_MS } from './client.ts';
import { tokenHeaders } from './devices.ts';

// Pictures kept through the server's file-storage module (an organisation's logo, a
// building's photo): uploaded as the raw body, read back through the token-carrying fetch.

/** Sends a picked image as the raw body to `url`; the server checks and re-encodes it. */
export async function uploadImage<T>(url: string, file: File) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { ...tokenHeaders(), 'Content-Type': 'application/octet-stream', Accept: 'application/json' },
    body: file,
    signal: AbortSignal.timeout(TIMEOUT_MS),
  }).catch(() => {
    throw new ApiError('network', 'Network Error');
  });
  return (await res.json()) as Envelope<T>;
}

/**
 * The stored image at `url` as an object URL (an <img> cannot send the token headers); null
 * when there is none. The caller revokes it.
 */
export async function storedImageUrl(url: string): Promise<string | null> {
  const res = await fetch(url, { headers: tokenHeaders() });
  if (!res.ok || !(res.headers.get('Content-Type') ?? '').startsWith('image/')) return null;
  return URL.createObjectURL(await res.blob());
}
