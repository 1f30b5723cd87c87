import { toiletIdOf } from '../public/add-comment.ts';

/**
 * Reading the console's own QR codes on /add-maintenance-record (扫码). A device's code opens
 * the add-record screen for its serial (core `addRecordPath({ ser_num })`), a toilet's 报修 link
 * names the toilet (`toilet_id`); a code holding just a serial number (a nameplate) is taken as
 * one. A toilet's public 评价 code (core `commentPath`, `/add-comment?toilet_id=<public id>`,
 * printed in the toilet and shown on its display screen) names the toilet by its public id,
 * which the server resolves to a toilet the caller sees (prefill `toilet_public_id`).
 */
export type Scanned =
  { ser_num: string } | { toilet_id: number } | { toilet_public_id: string } | { error: string };

const SERIAL = /^[A-Za-z0-9_.:-]{1,64}$/;

export function readScanned(text: string, origin: string): Scanned {
  const t = text.trim();
  if (SERIAL.test(t) && !/^https?:/i.test(t)) return { ser_num: t };
  let url: URL;
  try {
    url = new URL(t, origin);
  } catch {
    return { error: '无法识别的二维码' };
  }
  if (url.pathname.endsWith('/add-maintenance-record')) {
    const serial = url.searchParams.get('ser_num')?.trim();
    if (serial && SERIAL.test(serial)) return { ser_num: serial };
    const toilet = Number(url.searchParams.get('toilet_id'));
    if (Number.isInteger(toilet) && toilet > 0) return { toilet_id: toilet };
  }
  if (url.pathname.endsWith('/add-comment')) {
    const publicId = toiletIdOf(url.search);
    // A code printed before toilets had public ids holds the internal number: the review
    // page refuses it too, so it is reprinted rather than read.
    return publicId ? { toilet_public_id: publicId } : { error: '评价二维码已失效，请在厕所详情中重新打印' };
  }
  return { error: '无法识别的二维码' };
}

/** Why the camera could not be opened, for the person holding the phone. */
export function cameraError(e: unknown): string {
  const name = e instanceof Error || e instanceof DOMException ? e.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError')
    return '没有相机权限：请在浏览器设置中允许本网站使用相机，或手动输入序列号';
  if (name === 'NotFoundError' || name === 'OverconstrainedError' || name === 'NotReadableError')
    return '没有找到可用的相机，请手动输入序列号';
  return '无法打开相机，请手动输入序列号';
}

type Detect = (video: HTMLVideoElement) => Promise<string | null>;

interface BarcodeDetectorLike {
  detect(source: CanvasImageSource): Promise<{ rawValue: string }[]>;
}
type BarcodeDetectorClass = (new (o: { formats: string[] }) => BarcodeDetectorLike) & {
  getSupportedFormats(): Promise<string[]>;
};

/**
 * A QR decoder for video frames: the browser's BarcodeDetector where it reads QR codes, else
 * jsQR, loaded on first use in a chunk of its own (the login entry does not carry it).
 */
export async function qrDecoder(): Promise<Detect> {
  const Native = (globalThis as { BarcodeDetector?: BarcodeDetectorClass }).BarcodeDetector;
  if (Native && (await Native.getSupportedFormats().catch((): string[] => [])).includes('qr_code')) {
    const detector = new Native({ formats: ['qr_code'] });
    return async (video) => (await detector.detect(video))[0]?.rawValue ?? null;
  }
  const { default: jsQR } = await import('jsqr');
  const canvas = document.createElement('canvas');
  const g = canvas.getContext('2d', { willReadFrequently: true });
  return async (video) => {
    const w = video.videoWidth;
    const h = video.videoHeight;
    if (!g || !w || !h) return null;
    canvas.width = w;
    canvas.height = h;
    g.drawImage(video, 0, 0, w, h);
    return jsQR(g.getImageData(0, 0, w, h).data, w, h)?.data ?? null;
  };
}
