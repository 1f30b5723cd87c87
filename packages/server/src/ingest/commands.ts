import type { DownCommand } from '@se/core';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/index.ts';
import type { Broker } from '../mqtt/broker.ts';

/**
 * Sends queued commands to a device that is listening, oldest first, and marks each one
 * sent. The device's reply (a 'reply' message) closes it; expired ones read as 超时.
 */
export class CommandDelivery {
  private busy = new Set<number>();

  constructor(
    private db: Db,
    private broker: () => Broker | null,
    private log: FastifyBaseLogger,
  ) {}

  async deliver(deviceId: number): Promise<void> {
    const broker = this.broker();
    if (!broker || this.busy.has(deviceId)) return;
    this.busy.add(deviceId);
    try {
      const cmds = await this.db.query<DownCommand & { ser_num: string }>(
        `SELECT c.id AS command_id, c.type, c.op, c.payload, d.ser_num FROM device_commands c JOIN devices d ON d.id = c.device_id
          WHERE c.device_id = $1 AND c.status = 'pending' AND c.expires_at > now() ORDER BY c.id LIMIT 100`,
        [deviceId],
      );
      for (const { ser_num, ...c } of cmds) {
        if (!(await broker.sendDown({ id: deviceId, ser_num }, c))) break;
        await this.db.query(
          `UPDATE device_commands SET status = 'sent', sent_at = now() WHERE id = $1 AND status = 'pending'`,
          [c.command_id],
        );
      }
    } catch (err) {
      this.log.warn({ err, deviceId }, 'command delivery failed');
    } finally {
      this.busy.delete(deviceId);
    }
  }
}
