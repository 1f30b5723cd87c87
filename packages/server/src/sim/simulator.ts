import mqtt, { type MqttClient } from 'mqtt';
import { TOPIC } from '@se/core';
import { ValueModel, isQuiet, reviewShare, type SimDevice } from './values.ts';

export interface SimOptions {
  url: string;
  devices: SimDevice[];
  /** Total messages per second across all devices (0: as fast as acknowledgements allow). */
  rate: number;
  /** Stop after this long… */
  durationMs: number;
  /** …or once this is aborted, if sooner. */
  signal?: AbortSignal;
  /** Connections opened at once while starting. */
  connectConcurrency?: number;
  /** Each device answers commands like the real firmware would. */
  replyToCommands?: boolean;
  /**
   * Evaluation terminals send a rating only on about one tick in twenty (someone pressed a
   * button), as real ones do; off, every tick is a rating (load tests).
   */
  sparseRatings?: boolean;
  /** Called with every acknowledged message (durability checks). */
  onAck?: (serNum: string, id: string) => void;
}

export interface SimStats {
  connected: number;
  sent: number;
  acked: number;
  failed: number;
  /** Publish → PUBACK times, ms. */
  ackMs: number[];
}

/**
 * Drives devices over real MQTT: each connects as itself, publishes QoS 1 reports on its
 * up topic and waits for the PUBACK (which the console sends after commit).
 */
export async function simulate(o: SimOptions, onTick?: (s: SimStats) => void): Promise<SimStats> {
  const stats: SimStats = { connected: 0, sent: 0, acked: 0, failed: 0, ackMs: [] };
  const clients: { c: MqttClient; d: SimDevice; model: NonNullable<SimDevice['model']>; seq: number }[] = [];
  const conc = o.connectConcurrency ?? 50;
  for (let i = 0; i < o.devices.length; i += conc) {
    await Promise.all(
      o.devices.slice(i, i + conc).map(async (d) => {
        const c = await mqtt.connectAsync(o.url, {
          clientId: d.ser_num,
          username: d.ser_num,
          password: d.token,
          protocolVersion: 4,
          reconnectPeriod: 1000,
          keepalive: 60,
        });
        if (o.replyToCommands) {
          await c.subscribeAsync(TOPIC.down(d.ser_num), { qos: 1 });
          c.on('message', (_t, p) => {
            const cmd = JSON.parse(p.toString()) as { command_id: number };
            void c.publishAsync(
              TOPIC.up(d.ser_num),
              JSON.stringify({
                id: `r${cmd.command_id}`,
                ts: Date.now(),
                type: 'reply',
                command_id: cmd.command_id,
                ok: true,
                result: '完成',
              }),
              { qos: 1 },
            );
          });
        }
        clients.push({ c, d, model: d.model ?? new ValueModel(d), seq: 0 });
        stats.connected++;
      }),
    );
  }
  const end = Date.now() + o.durationMs;
  const going = () => Date.now() < end && !o.signal?.aborted;
  const publish = async (x: (typeof clients)[number]) => {
    const now = Date.now();
    if (isQuiet(x.d, now)) return;
    // Ratings and punches come when someone presses a button or passes a terminal; reviews
    // follow the day's use and come twice as often at weekends.
    if (o.sparseRatings && x.d.kind === 'evaluate' && Math.random() > reviewShare(now)) return;
    if (o.sparseRatings && x.d.kind === 'attendance' && Math.random() > 0.05) return;
    const msg = { id: `${now}-${x.seq++}`, ts: now, type: 'report', data: x.model.next(now) };
    stats.sent++;
    const t0 = performance.now();
    try {
      await x.c.publishAsync(TOPIC.up(x.d.ser_num), JSON.stringify(msg), { qos: 1 });
      stats.acked++;
      o.onAck?.(x.d.ser_num, msg.id);
      if (stats.ackMs.length < 200_000) stats.ackMs.push(performance.now() - t0);
    } catch {
      stats.failed++;
    }
  };
  const tick = setInterval(() => onTick?.(stats), 1000);
  if (o.rate > 0) {
    // Paced: every 10 ms, the share of the rate, round-robin over devices.
    let i = 0;
    let owed = 0;
    while (going()) {
      owed += o.rate / 100;
      const n = Math.floor(owed);
      owed -= n;
      for (let k = 0; k < n; k++) void publish(clients[i++ % clients.length]!);
      await new Promise((r) => setTimeout(r, 10));
    }
  } else {
    // Flat out: every device publishes its next report as soon as the last one is acked.
    await Promise.all(
      clients.map(async (x) => {
        while (going()) await publish(x);
      }),
    );
  }
  clearInterval(tick);
  await new Promise((r) => setTimeout(r, 500));
  await Promise.all(clients.map((x) => x.c.endAsync(true)));
  return stats;
}
