import { sendRaw, tokenHeaders } from './client.ts';

// Pictures kept through the server's file-storage module (an organisation's logo, a
// building's photo): uploaded as the raw body, read back through the token-carrying fetch.

/** Sends a picked image as the raw body to `url`; the server checks and re-encodes it. */
export const uploadImage = <T>(url: string, file: File) => sendRaw<T>(url, file, 'application/octet-stream');

/**
 * The stored image at `url` as an object URL (an <img> cannot send the token headers); null
 * when there is none. The caller revokes it.
 */
export async function storedImageUrl(url: string): Promise<string | null> {
  const res = await fetch(url, { headers: tokenHeaders() });
  if (!res.ok || !(res.headers.get('Content-Type') ?? '').startsWith('image/')) return null;
  return URL.createObjectURL(await res.blob());
}
