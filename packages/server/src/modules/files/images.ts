/**
 * Uploaded images are never kept as sent: the real type is read from the bytes, and the
 * picture is decoded and encoded again by sharp, which drops metadata (EXIF location,
 * comments) and anything a crafted file carries besides pixels. SVG (script), HTML or any
 * other type dressed as an image, and "decompression bombs" (a small file declaring a huge
 * canvas) are refused with a Chinese message before the pixels are decoded.
 */
import sharp, { type Metadata } from 'sharp';
import { badRequest } from '../../errors.ts';

export type ImageFormat = 'jpeg' | 'png' | 'webp' | 'gif';

const MIME: Record<ImageFormat, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
};

/** The image type of `buf` by its magic bytes, or null. */
export function sniffImage(buf: Buffer): ImageFormat | null {
  if (buf.length >= 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return 'jpeg';
  if (
    buf.length >= 8 &&
    buf.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  )
    return 'png';
  if (buf.length >= 12 && buf.toString('latin1', 0, 4) === 'RIFF' && buf.toString('latin1', 8, 12) === 'WEBP')
    return 'webp';
  if (buf.length >= 6 && /^GIF8[79]a$/.test(buf.toString('latin1', 0, 6))) return 'gif';
  return null;
}

export interface ImageLimits {
  /** Bytes of the uploaded file at most. */
  maxBytes: number;
  /** Width × height at most (default 40 megapixels). */
  maxPixels?: number;
  /** Types accepted (default JPEG, PNG, WebP). */
  accept?: ImageFormat[];
  /** Longest side of the stored picture; larger ones are scaled down (default: kept). */
  maxSide?: number;
  /** Stored as this type (default: WebP for stills, GIF stays GIF when accepted). */
  output?: ImageFormat;
}

export interface Reencoded {
  buffer: Buffer;
  format: ImageFormat;
  mime: string;
  width: number;
  height: number;
}

const LABEL: Record<ImageFormat, string> = { jpeg: 'JPEG', png: 'PNG', webp: 'WebP', gif: 'GIF' };

/** Checks, decodes and re-encodes an uploaded image; refusals are `AppError`s in Chinese. */
export async function reencodeImage(buf: Buffer, limits: ImageLimits): Promise<Reencoded> {
  const accept = limits.accept ?? ['jpeg', 'png', 'webp'];
  const names = accept.map((f) => LABEL[f]).join('、');
  if (buf.length === 0) throw badRequest('图片文件为空');
  if (buf.length > limits.maxBytes) throw badRequest(`图片不能超过 ${formatBytes(limits.maxBytes)}`);
  const format = sniffImage(buf);
  if (!format) {
    const head = buf.subarray(0, 512).toString('utf8').trimStart().toLowerCase();
    if (head.startsWith('<svg') || (head.startsWith('<?xml') && head.includes('<svg')))
      throw badRequest(`不支持 SVG 图片，请上传 ${names} 格式`);
    throw badRequest(`文件不是有效的图片，请上传 ${names} 格式`);
  }
  if (!accept.includes(format)) throw badRequest(`不支持 ${LABEL[format]} 图片，请上传 ${names} 格式`);
  const maxPixels = limits.maxPixels ?? 40_000_000;
  let meta: Metadata;
  try {
    // Reads the header only: a bomb is refused before its pixels are decoded.
    meta = await sharp(buf, { limitInputPixels: false }).metadata();
  } catch {
    throw badRequest('图片已损坏，无法读取');
  }
  const width = meta.width ?? 0;
  const height = meta.pageHeight ?? meta.height ?? 0;
  if (!width || !height) throw badRequest('图片已损坏，无法读取');
  if (width * height > maxPixels) {
    throw badRequest(
      `图片尺寸过大（${width}×${height}），请上传不超过 ${Math.round(maxPixels / 1e6)} 百万像素的图片`,
    );
  }
  const animated = format === 'gif' && (meta.pages ?? 1) > 1;
  const out: ImageFormat = limits.output ?? (format === 'gif' ? 'gif' : 'webp');
  try {
    let img = sharp(buf, { limitInputPixels: maxPixels, animated, failOn: 'error' }).rotate();
    if (limits.maxSide)
      img = img.resize(limits.maxSide, limits.maxSide, { fit: 'inside', withoutEnlargement: true });
    img = img.toFormat(
      out,
      out === 'jpeg' ? { quality: 85, mozjpeg: true } : out === 'webp' ? { quality: 85 } : {},
    );
    const { data, info } = await img.toBuffer({ resolveWithObject: true });
    return {
      buffer: data,
      format: out,
      mime: MIME[out],
      width: info.width,
      height: info.pageHeight ?? info.height,
    };
  } catch {
    throw badRequest('图片已损坏，无法读取');
  }
}

export function formatBytes(n: number) {
  if (n >= 1024 * 1024 * 1024) return `${+(n / 1024 / 1024 / 1024).toFixed(1)} GB`;
  if (n >= 1024 * 1024) return `${+(n / 1024 / 1024).toFixed(1)} MB`;
  if (n >= 1024) return `${+(n / 1024).toFixed(1)} KB`;
  return `${n} B`;
}
