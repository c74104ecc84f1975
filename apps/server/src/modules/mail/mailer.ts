import { desc } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { Database } from '../../db/client.ts';
import { mailOutbox } from '../../db/schema.ts';
import { DependencyUnavailableError, noteOutage, noteReachable, watchRecovery } from '../../outage.ts';
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

/** nodemailer's codes for an SMTP server that cannot be reached or stopped answering. */
const UNREACHABLE = new Set(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS']);

/**
 * Whether a send failed because the SMTP server is unreachable or refuses for now (a 4xx answer,
 * e.g. 421 "service not available"), not because of the mail itself.
 */
export const smtpUnavailable = (error: unknown): boolean => {
  const err = error as { code?: string; command?: string; responseCode?: number } | undefined;
  return (
    UNREACHABLE.has(err?.code ?? '') ||
    err?.command === 'CONN' ||
    (err?.responseCode !== undefined && err.responseCode >= 400 && err.responseCode < 500)
  );
};

/**
 * Real delivery through any SMTP server, e.g. smtp://user:pass@mail.example.org:587. An unreachable
 * server fails a send within seconds (not nodemailer's default two minutes) with a
 * DependencyUnavailableError, which the edge answers with a 503 (outage.ts); while it is down a
 * connection check every second tells when it is back.
 */
export function smtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport({
    url,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  const unwatch = watchRecovery('smtp', () => transport.verify());
  return {
    kind: 'smtp',
    async send(mail) {
      try {
        await transport.sendMail({ from, ...mail });
      } catch (error) {
        if (!smtpUnavailable(error)) throw error;
        noteOutage('smtp', error);
        throw new DependencyUnavailableError('smtp', error);
      }
      noteReachable('smtp');
    },
    async close() {
      unwatch();
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
