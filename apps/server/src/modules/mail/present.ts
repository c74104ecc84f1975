import type { mailOutbox } from '../../db/schema.ts';

/** A mail of the development outbox as the outbox query reads it. */
export type OutboxRow = Pick<typeof mailOutbox.$inferSelect, 'id' | 'to' | 'subject' | 'text'> & {
  created_at: Date;
};

/** A mail of the development outbox as the /dev/outbox pages show it. */
export const presentOutboxMail = (mail: OutboxRow) => ({
  id: mail.id,
  to: mail.to,
  subject: mail.subject,
  text: mail.text,
  created_at: mail.created_at.toISOString(),
});
