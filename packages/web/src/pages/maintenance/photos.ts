/**
 * Phone photos are compressed in the browser before they travel (a weak signal in the field):
 * scaled to MAX_SIDE on the longer side and encoded as JPEG. The server checks the bytes and
 * re-encodes them anyway.
 */
const MAX_SIDE = 1600;
const QUALITY = 0.8;

/** A picked or camera file as a compressed JPEG data URL (kept in the draft across reloads). */
export async function compressPhoto(file: Blob): Promise<string> {
  const bitmap = await createImageBitmap(file);
  const scale = Math.min(1, MAX_SIDE / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(bitmap.width * scale));
  canvas.height = Math.max(1, Math.round(bitmap.height * scale));
  const g = canvas.getContext('2d');
  if (!g) throw new Error('canvas');
  g.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  return canvas.toDataURL('image/jpeg', QUALITY);
}

/** A data URL's bytes, to upload. */
export function dataUrlBlob(url: string): Blob {
  const [head, data] = url.split(',', 2);
  const type = /data:([^;]+)/.exec(head ?? '')?.[1] ?? 'application/octet-stream';
  const bytes = Uint8Array.from(atob(data ?? ''), (c) => c.charCodeAt(0));
  return new Blob([bytes], { type });
}
