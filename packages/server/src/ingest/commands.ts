import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/index.ts';
import type { Broker } from '../mqtt/broker.ts';
import { devicesWithPendingCommands, markCommandSent, pendingCommands } from './repo.ts';

/**
 * Sends queued commands to a device that is listening, oldest first, and marks each one
 * sent. The device's reply (a 'reply' message) closes it; expired ones read as 超时.
 */
export class CommandDelivery {
  private busy = new Set<number>();
  private listening = new Set<number>();
  private sweeping = false;

  constructor(
    private db: Db,
    private broker: () => Broker | null,
    private log: FastifyBaseLogger,
  ) {}

  /**
   * The device listens on its down topic now. After a restart thousands do within seconds:
   * one query finds those of them with anything waiting, not one query per device.
   */
  listens(deviceId: number) {
    this.listening.add(deviceId);
    if (this.sweeping) return;
    this.sweeping = true;
    setImmediate(() => void this.sweep());
  }

  private async sweep() {
    try {
      while (this.listening.size) {
        const ids = [...this.listening];
        this.listening.clear();
        for (const id of await devicesWithPendingCommands(this.db, ids)) void this.deliver(id);
      }
    } catch (err) {
      this.log.warn({ err }, 'command delivery failed');
    } finally {
      this.listening.clear();
      this.sweeping = false;
    }
  }

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
