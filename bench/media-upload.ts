// Chunked media upload of a large video against a running console (issue 17): a 1 GB MP4
// (a short real H.264 clip made by ffmpeg, padded with an MP4 `free` box, which players and
// ffprobe skip) is sent in 8 MB chunks over HTTP to a console started in its own process,
// then finished (probed, poster frame, moved into the file store with its SHA-256). The
// baseline, in the same run and on the same disk, is a plain streamed copy of the file.
// Printed: seconds and MB/s of each, the ratio upload / copy, and the server's RSS before,
// at its peak and after (read from /proc every 100 ms): flat means chunks are streamed to
// disk, never held in memory.
// Usage: npm run bench:media-upload [-- megabytes]   (default 1024)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { MEDIA_API, MEDIA_CHUNK_TYPE } from '../packages/core/src/index.ts';
import { BENCH_PASSWORD, startConsole } from './server.ts';

const MB = 1024 * 1024;
const size = Number(process.argv[2] ?? 1024) * MB;
const CHUNK = 8 * MB;

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'media-bench-'));
const clip = path.join(work, 'clip.mp4');
execFileSync('ffmpeg', [
  '-v',
  'error',
  '-y',
  '-f',
  'lavfi',
  '-i',
  'testsrc2=size=640x360:rate=25:duration=5',
  '-c:v',
  'libx264',
  '-preset',
  'ultrafast',
  '-pix_fmt',
  'yuv420p',
  '-movflags',
  '+faststart',
  clip,
]);
const file = path.join(work, 'big.mp4');
{
  // The clip, then one `free` box (64-bit size) up to `size` bytes, written in 8 MB pieces.
  fs.copyFileSync(clip, file);
  const pad = size - fs.statSync(clip).size;
  const head = Buffer.alloc(16);
  head.writeUInt32BE(1, 0);
  head.write('free', 4, 'latin1');
  head.writeBigUInt64BE(BigInt(pad), 8);
  const fd = fs.openSync(file, 'a');
  fs.writeSync(fd, head);
  const zeros = Buffer.alloc(CHUNK);
  for (let left = pad - 16; left > 0; left -= CHUNK) fs.writeSync(fd, zeros, 0, Math.min(CHUNK, left));
  fs.closeSync(fd);
}

// Baseline: a plain streamed copy on the same disk.
const copyStart = performance.now();
await pipeline(fs.createReadStream(file), fs.createWriteStream(path.join(work, 'copy.mp4')));
const copyS = (performance.now() - copyStart) / 1000;
fs.rmSync(path.join(work, 'copy.mp4'));

const server = await startConsole({ dataDir: path.join(work, 'data'), env: { LOG_LEVEL: 'fatal' } });
const pid = server.child.pid!;
const rss = () => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
const login = await fetch(`${server.http}/api/v1/auth/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ filter: 'admin', password: BENCH_PASSWORD }),
});
const token = ((await login.json()) as { data: { auth_token: string } }).data.auth_token;
const call = async <T>(url: string, body: unknown, type = 'application/json') => {
  const res = await fetch(`${server.http}${url}`, {
    method: 'POST',
    headers: { 'x-token': token, 'content-type': type },
    body: type === 'application/json' ? JSON.stringify(body) : (body as Uint8Array<ArrayBuffer>),
  });
  const env = (await res.json()) as { code: number; message: string; data: T };
  if (env.code !== 200) throw new Error(`${url}: ${env.code} ${env.message}`);
  return env.data;
};

const before = rss();
let peak = before;
const sampler = setInterval(() => (peak = Math.max(peak, rss())), 100);
const upStart = performance.now();
const s = await call<{ id: string }>(MEDIA_API.uploads, {
  kind: 'video',
  name: 'bench',
  size,
  fingerprint: 'bench',
});
const fd = fs.openSync(file, 'r');
const buf = Buffer.alloc(CHUNK);
for (let at = 0; at < size; at += CHUNK) {
  const n = fs.readSync(fd, buf, 0, CHUNK, at);
  await call(
    `${MEDIA_API.uploadChunk}?id=${s.id}&offset=${at}`,
    new Uint8Array(buf.subarray(0, n)),
    MEDIA_CHUNK_TYPE,
  );
}
fs.closeSync(fd);
const sentS = (performance.now() - upStart) / 1000;
const item = await call<{ duration_ms: number; codec: string; size: number }>(MEDIA_API.uploadFinish, {
  id: s.id,
});
const upS = (performance.now() - upStart) / 1000;
clearInterval(sampler);
const after = rss();
await server.stop();
fs.rmSync(work, { recursive: true, force: true });

const mb = size / MB;
const fmt = (n: number) => `${(n / MB).toFixed(0)} MB`;
console.log(`file: ${mb} MB MP4 (${item.codec}, ${item.duration_ms} ms, stored ${fmt(item.size)})`);
console.log(`plain streamed copy (baseline): ${copyS.toFixed(2)} s, ${(mb / copyS).toFixed(0)} MB/s`);
console.log(`chunked upload (8 MB chunks):    ${sentS.toFixed(2)} s, ${(mb / sentS).toFixed(0)} MB/s`);
console.log(
  `  + finish (probe, poster, store with SHA-256): ${(upS - sentS).toFixed(2)} s; total ${upS.toFixed(2)} s`,
);
console.log(`ratio chunks / copy: ${(sentS / copyS).toFixed(2)}; with finish: ${(upS / copyS).toFixed(2)}`);
console.log(
  `server RSS: before ${fmt(before)}, peak ${fmt(peak)}, after ${fmt(after)} (peak − before ${fmt(peak - before)})`,
);
