import crypto from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';
import { PLAYER_OPS, TOPIC, localMoment, resolveSchedule, type ScheduleRule } from '@se/core';
import type { Manifest, ManifestItem } from '../modules/media-players/manifest.ts';

/** A simulated screen (docs/protocol.md, "Screens"). */
export interface SimPlayer {
  ser_num: string;
  token: string;
}

export interface PlayerSimOptions {
  /** The console's MQTT URL and HTTP base (content links in manifests are paths on it). */
  mqttUrl: string;
  httpBase: string;
  players: SimPlayer[];
  /** Seconds between status reports (plays since the last one, volume, storage…). */
  reportEveryS?: number;
  /** Chance per minute that a player drops off for 20–60 s (it gets what it missed on return). */
  dropPerMinute?: number;
  signal?: AbortSignal;
  log?: (line: string) => void;
}

interface Down {
  command_id: number;
  type: string;
  op: number | null;
  payload: Record<string, unknown>;
}

/**
 * One screen: takes manifests from its down topic, really downloads their files over HTTP
 * (checking each checksum), reports progress, ready, playing and errors, plays the playlist
 * its schedules resolve to on its own clock, reports proof of play, obeys its commands, and
 * goes offline now and then.
 */
class Player {
  private c: MqttClient | null = null;
  private seq = 0;
  private manifest: { id: number; m: Manifest } | null = null;
  private cursor = 0;
  private itemEnds = 0;
  private current: ManifestItem | null = null;
  private plays: { item: number; start: number; duration: number }[] = [];
  private volume = 60;
  private screenOn = true;
  private schedule = '07:00-22:00';
  private downloading = 0;
  private timers: NodeJS.Timeout[] = [];

  constructor(
    private d: SimPlayer,
    private o: PlayerSimOptions,
  ) {}

  async start() {
    await this.connect();
    const every = (this.o.reportEveryS ?? 10) * 1000;
    this.timers.push(setInterval(() => void this.tick(), 1000));
    this.timers.push(setInterval(() => void this.status(), every));
    this.timers.push(setInterval(() => void this.maybeDrop(), 60_000));
  }

  stop() {
    for (const t of this.timers) clearInterval(t);
    void this.c?.endAsync(true);
  }

  private async connect() {
    const c = await mqtt.connectAsync(this.o.mqttUrl, {
      clientId: this.d.ser_num,
      username: this.d.ser_num,
      password: this.d.token,
      protocolVersion: 4,
      reconnectPeriod: 2000,
      keepalive: 60,
    });
    c.on('message', (_t, p) => void this.onCommand(JSON.parse(p.toString()) as Down));
    await c.subscribeAsync(TOPIC.down(this.d.ser_num), { qos: 1 });
    this.c = c;
  }

  private async maybeDrop() {
    if (!this.c || Math.random() >= (this.o.dropPerMinute ?? 0.1)) return;
    const c = this.c;
    this.c = null;
    await c.endAsync(true);
    const away = 20_000 + Math.random() * 40_000;
    this.o.log?.(`${this.d.ser_num} offline for ${Math.round(away / 1000)} s`);
    setTimeout(() => void this.connect().catch(() => undefined), away);
  }

  private async send(data: Record<string, unknown>) {
    if (!this.c) return;
    const msg = { id: `p${Date.now()}-${this.seq++}`, ts: Date.now(), type: 'report', data };
    await this.c
      .publishAsync(TOPIC.up(this.d.ser_num), JSON.stringify(msg), { qos: 1 })
      .catch(() => undefined);
  }

  private async reply(cmd: Down, ok: boolean, result: string) {
    if (!this.c) return;
    const msg = {
      id: `r${cmd.command_id}`,
      ts: Date.now(),
      type: 'reply',
      command_id: cmd.command_id,
      ok,
      result,
    };
    await this.c
      .publishAsync(TOPIC.up(this.d.ser_num), JSON.stringify(msg), { qos: 1 })
      .catch(() => undefined);
  }

  private async onCommand(cmd: Down) {
    if (cmd.type === 'manifest') {
      await this.reply(cmd, true, '已接收播放清单');
      await this.take(cmd.command_id, cmd.payload as unknown as Manifest);
      return;
    }
    if (cmd.type !== 'player') return this.reply(cmd, false, '不支持的命令');
    if (cmd.op === PLAYER_OPS.volume) this.volume = Number(cmd.payload.volume);
    if (cmd.op === PLAYER_OPS.screen) this.screenOn = cmd.payload.on === true;
    if (cmd.op === PLAYER_OPS.screenSchedule)
      this.schedule = `${String(cmd.payload.on)}-${String(cmd.payload.off)}`;
    if (cmd.op === PLAYER_OPS.restart) this.cursor = 0;
    await this.reply(cmd, true, cmd.op === PLAYER_OPS.restart ? '已重启' : '已执行');
    await this.status();
  }

  /** Downloads every file of the manifest (checking its SHA-256), reporting progress, then plays. */
  private async take(id: number, m: Manifest) {
    const files = m.playlists.flatMap((p) => p.items).filter((i) => i.url?.startsWith('/') && i.sha256);
    const total = files.reduce((s, f) => s + f.size, 0) || 1;
    let done = 0;
    this.downloading = id;
    try {
      for (const f of files) {
        const res = await fetch(`${this.o.httpBase}${f.url}`);
        if (!res.ok || res.headers.get('content-type')?.includes('json'))
          throw new Error(`下载失败：${f.name}`);
        const body = Buffer.from(await res.arrayBuffer());
        if (crypto.createHash('sha256').update(body).digest('hex') !== f.sha256)
          throw new Error(`校验失败：${f.name}`);
        done += f.size;
        if (this.downloading !== id) return; // a newer manifest came meanwhile
        await this.send({
          manifest: { id, state: 'downloading', progress: Math.round((done / total) * 100) },
        });
      }
      await this.send({ manifest: { id, state: 'ready' } });
      this.manifest = { id, m };
      this.cursor = 0;
      this.itemEnds = 0;
      await this.send({ manifest: { id, state: 'playing' } });
    } catch (err) {
      await this.send({ manifest: { id, state: 'failed', error: (err as Error).message.slice(0, 200) } });
    }
  }

  /** Every second: the item on screen ends, the next of the resolved playlist starts. */
  private async tick() {
    const now = Date.now();
    if (!this.manifest || now < this.itemEnds) return;
    if (this.current) {
      this.plays.push({
        item: this.current.id,
        start: this.itemEnds - this.current.duration_s * 1000,
        duration: this.current.duration_s,
      });
    }
    const rule = resolveSchedule(this.manifest.m.schedules as ScheduleRule[], localMoment(new Date(now)));
    const items = this.manifest.m.playlists.find((p) => p.id === rule?.playlist_id)?.items ?? [];
    this.current = items.length ? items[this.cursor++ % items.length]! : null;
    this.itemEnds = now + (this.current ? Math.max(1, this.current.duration_s) * 1000 : 5000);
    await this.send({ now_item: this.current?.id ?? 0 });
  }

  private async status() {
    const plays = this.plays.splice(0, 200);
    await this.send({
      ...(plays.length ? { plays } : {}),
      volume: this.volume,
      screen_on: this.screenOn ? 1 : 0,
      screen_schedule: this.schedule,
      resolution: '1920x1080',
      storage_free: 12_000 + Math.round(Math.random() * 500),
      ...(this.manifest ? { manifest: { id: this.manifest.id, state: 'playing' } } : {}),
    });
  }
}

/** Runs the screens until `signal` aborts. */
export async function simulatePlayers(o: PlayerSimOptions) {
  const players = o.players.map((d) => new Player(d, o));
  for (const p of players) await p.start();
  o.signal?.addEventListener('abort', () => players.forEach((p) => p.stop()));
  return players;
}
