/**
 * Uploaded videos: the container is read from the bytes (MP4 `ftyp`, WebM's EBML header with
 * DocType webm), the streams from `ffprobe` (Debian package ffmpeg), and anything a player
 * cannot decode is refused with a Chinese reason before it is stored. The poster frame is
 * one frame taken by `ffmpeg` and re-encoded like any picture.
 */
import { execFile } from 'node:child_process';
import { open } from 'node:fs/promises';
import { MEDIA_AUDIO_CODECS, MEDIA_LIMITS, MEDIA_VIDEO_CODECS } from '@se/core';
import { badRequest } from '../../errors.ts';

export type VideoContainer = 'mp4' | 'webm';

export interface VideoInfo {
  container: VideoContainer;
  mime: string;
  width: number;
  height: number;
  duration_ms: number;
  /** e.g. "h264/aac", "vp9/opus", "vp9" (no sound). */
  codec: string;
}

/** The container of a file by its first bytes, or null. */
export function sniffVideo(head: Buffer): VideoContainer | null {
  if (head.length >= 12 && head.toString('latin1', 4, 8) === 'ftyp') return 'mp4';
  if (head.length >= 4 && head.readUInt32BE(0) === 0x1a45dfa3) {
    // EBML: Matroska and WebM share it; the DocType says which.
    const text = head.toString('latin1');
    if (text.includes('webm')) return 'webm';
    if (text.includes('matroska')) return null;
  }
  return null;
}

const CODEC_LABEL: Record<string, string> = {
  h264: 'H.264',
  hevc: 'H.265',
  vp8: 'VP8',
  vp9: 'VP9',
  av1: 'AV1',
  aac: 'AAC',
  mp3: 'MP3',
  opus: 'Opus',
  vorbis: 'Vorbis',
};
const label = (c: string) => CODEC_LABEL[c] ?? c.toUpperCase();

function run(cmd: string, args: string[], opts: { maxBuffer?: number; binary?: boolean } = {}) {
  return new Promise<Buffer>((resolve, reject) => {
    execFile(
      cmd,
      args,
      { timeout: 120_000, maxBuffer: opts.maxBuffer ?? 4 * 1024 * 1024, encoding: 'buffer' },
      (err, stdout) => (err ? reject(err) : resolve(stdout)),
    );
  });
}

interface Probe {
  streams?: {
    codec_type?: string;
    codec_name?: string;
    width?: number;
    height?: number;
    pix_fmt?: string;
    duration?: string;
  }[];
  format?: { duration?: string };
}

/** Checks and describes the video in `file`; refusals are Chinese `AppError`s. */
export async function probeVideo(file: string): Promise<VideoInfo> {
  const fh = await open(file, 'r');
  const head = Buffer.alloc(4096);
  let n: number;
  try {
    ({ bytesRead: n } = await fh.read(head, 0, head.length, 0));
  } finally {
    await fh.close();
  }
  const container = sniffVideo(head.subarray(0, n));
  if (!container) throw badRequest('文件不是有效的视频，请上传 MP4（H.264/AAC）或 WebM（VP9）格式');
  let probe: Probe;
  try {
    const out = await run('ffprobe', [
      '-v',
      'error',
      '-print_format',
      'json',
      '-show_format',
      '-show_streams',
      file,
    ]);
    probe = JSON.parse(out.toString('utf8')) as Probe;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      throw new Error('ffprobe is not installed (Debian package ffmpeg)', { cause: err });
    throw badRequest('视频已损坏，无法读取');
  }
  const streams = probe.streams ?? [];
  const video = streams.find(
    (s) => s.codec_type === 'video' && s.codec_name !== 'mjpeg' && s.codec_name !== 'png',
  );
  if (!video?.codec_name) throw badRequest('视频中没有画面，无法播放');
  const vAllowed = MEDIA_VIDEO_CODECS[container] as readonly string[];
  const name = container === 'mp4' ? 'MP4' : 'WebM';
  if (!vAllowed.includes(video.codec_name)) {
    throw badRequest(
      `播放器无法播放 ${name} 中的 ${label(video.codec_name)} 视频编码，请转码为 ${vAllowed.map(label).join('、')}`,
    );
  }
  if (video.codec_name === 'h264' && video.pix_fmt && !/^yuvj?420p$/.test(video.pix_fmt)) {
    throw badRequest(`播放器只能播放 8 位 4:2:0 的 H.264 视频（此文件为 ${video.pix_fmt}），请重新转码`);
  }
  const audio = streams.find((s) => s.codec_type === 'audio');
  const aAllowed = MEDIA_AUDIO_CODECS[container] as readonly string[];
  if (audio?.codec_name && !aAllowed.includes(audio.codec_name)) {
    throw badRequest(
      `播放器无法播放 ${name} 中的 ${label(audio.codec_name)} 音频编码，请转码为 ${aAllowed.map(label).join('、')}`,
    );
  }
  const width = video.width ?? 0;
  const height = video.height ?? 0;
  if (!width || !height) throw badRequest('无法读取视频分辨率，文件可能已损坏');
  if (Math.max(width, height) > MEDIA_LIMITS.videoMaxSide) {
    throw badRequest(
      `视频分辨率过高（${width}×${height}），播放器最大支持 ${MEDIA_LIMITS.videoMaxSide} 像素`,
    );
  }
  const seconds = Number(probe.format?.duration ?? video.duration ?? NaN);
  if (!Number.isFinite(seconds) || seconds <= 0) throw badRequest('无法读取视频时长，文件可能已损坏');
  return {
    container,
    mime: container === 'mp4' ? 'video/mp4' : 'video/webm',
    width,
    height,
    duration_ms: Math.round(seconds * 1000),
    codec: audio?.codec_name ? `${video.codec_name}/${audio.codec_name}` : video.codec_name,
  };
}

/** One frame of the video (a tenth in, at most 3 s) as PNG bytes, or null when none decodes. */
export async function posterFrame(file: string, durationMs: number): Promise<Buffer | null> {
  const at = Math.min(3, durationMs / 10000).toFixed(2);
  try {
    const png = await run(
      'ffmpeg',
      [
        '-v',
        'error',
        '-ss',
        at,
        '-i',
        file,
        '-frames:v',
        '1',
        '-vf',
        `scale='min(640,iw)':-2`,
        '-f',
        'image2pipe',
        '-c:v',
        'png',
        '-',
      ],
      { maxBuffer: 32 * 1024 * 1024 },
    );
    return png.length > 0 ? png : null;
  } catch {
    return null;
  }
}
