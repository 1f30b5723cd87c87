import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/index.ts';
import type { Broker } from '../mqtt/broker.ts';
import { markCommandSent, pendingCommands } from './repo.ts';

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
      const cmds = await pendingCommands(this.db, deviceId);
      for (const { ser_num, ...c } of cmds) {
        if (!(await broker.sendDown({ id: deviceId, ser_num }, c))) break;
        await markCommandSent(this.db, c.command_id);
      }
    } catch (err) {
      this.log.warn({ err, deviceId }, 'command delivery failed');
    } finally {
      this.busy.delete(deviceId);
    }
  }
}
