import { desc } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { Database } from '../../db/client.ts';
import { mailOutbox } from '../../db/schema.ts';
import { presentOutboxMail } from './present.ts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  send(mail: Mail): Promise<void>;
  close(): Promise<void>;
}

/** Real delivery through any SMTP server, e.g. smtp://user:pass@mail.example.org:587. */
export function smtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport(url);
  return {
    kind: 'smtp',
    async send(mail) {
      await transport.sendMail({ from, ...mail });
    },
    async close() {
      transport.close();
    },
  };
}

/** The embedded default: mail is kept in a table and shown at /dev/outbox outside production. */
export function outboxMailer(db: Database): Mailer {
  return {
    kind: 'outbox',
    async send(mail) {
      await db
        .insert(mailOutbox)
        .values({ to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
    },
    async close() {},
  };
}

export async function listOutbox(db: Database, limit = 50) {
  return db
    .select({
      id: mailOutbox.id,
      to: mailOutbox.to,
      subject: mailOutbox.subject,
      text: mailOutbox.text,
      created_at: mailOutbox.createdAt,
    })
    .from(mailOutbox)
    .orderBy(desc(mailOutbox.id))
    .limit(limit);
}

/** The development outbox as the /dev/outbox pages show it: the newest mails first. */
export function createOutboxService(db: Database) {
  return {
    async list(limit = 50) {
      const mails = await listOutbox(db, limit);
      return mails.map(presentOutboxMail);
    },
  };
}

export type OutboxService = ReturnType<typeof createOutboxService>;
