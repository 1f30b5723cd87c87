import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/index.ts';
import { insertOutbox, markOutboxError, markOutboxSent } from './repo.ts';

export interface Mail {
  to: string;
  subject: string;
  body: string;
  /** An HTML alternative of `body` (reports); the outbox keeps the text. */
  html?: string;
}

/**
 * Every mail lands in the outbox table first; with SMTP_URL it is then sent and marked.
 * Without SMTP the outbox (and the log) is where developers read it.
 */
export class Mailer {
  private transport: nodemailer.Transporter | null;

  constructor(
    private db: Db,
    private log: FastifyBaseLogger,
    smtpUrl: string | undefined,
    private from: string,
  ) {
    this.transport = smtpUrl ? nodemailer.createTransport(smtpUrl) : null;
  }

  async send(mail: Mail): Promise<void> {
    const id = await insertOutbox(this.db, mail.to, mail.subject, mail.body);
    if (!this.transport) {
      this.log.info({ outbox: id, to: mail.to, subject: mail.subject }, `mail (outbox): ${mail.body}`);
      return;
    }
    // Delivery happens after the answer: a slow SMTP server must not hold the request.
    this.transport
      .sendMail({ from: this.from, to: mail.to, subject: mail.subject, text: mail.body })
      .then(
        () => markOutboxSent(this.db, id),
        (err: Error) => {
          this.log.warn({ outbox: id, err: err.message }, 'mail delivery failed');
          return markOutboxError(this.db, id, err.message.slice(0, 500));
        },
      )
      .catch(() => {});
  }

  /**
   * Records the mail and, with SMTP, waits for the server's answer: for callers that keep
   * their own delivery state and retry (notifications). Throws when SMTP refuses it.
   * Answers 'outbox' when no SMTP is configured (the outbox is the delivery).
   */
  async sendNow(mail: Mail): Promise<'smtp' | 'outbox'> {
    const id = await insertOutbox(this.db, mail.to, mail.subject, mail.body);
    if (!this.transport) {
      this.log.info({ outbox: id, to: mail.to, subject: mail.subject }, 'mail (outbox)');
      return 'outbox';
    }
    try {
      await this.transport.sendMail({
        from: this.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.body,
        ...(mail.html ? { html: mail.html } : {}),
      });
    } catch (err) {
      await markOutboxError(this.db, id, (err as Error).message.slice(0, 500));
      throw err;
    }
    await markOutboxSent(this.db, id);
    return 'smtp';
  }

  close() {
    this.transport?.close();
  }
}
