import type { AddressInfo } from 'node:net';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
}

/**
 * A real SMTP server on 127.0.0.1 that keeps what it receives, for tests that read the mail. `port`:
 * a fixed one (a test that stops the server and starts another in its place), else any free one.
 */
export async function startSmtpServer(port = 0) {
  const inbox: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', async () => {
        const parsed = await PostalMime.parse(Buffer.concat(chunks));
        inbox.push({
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          subject: parsed.subject ?? '',
          text: parsed.text ?? '',
          html: parsed.html ?? '',
        });
        for (const wake of waiters) wake();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const listening = (server.server.address() as AddressInfo).port;

  return {
    url: `smtp://127.0.0.1:${listening}`,
    inbox,
    /** Resolves with the first mail (counting from `after`) that matches, or fails after `timeoutMs`. */
    async waitFor(match: (mail: ReceivedMail) => boolean, { after = 0, timeoutMs = 5000 } = {}) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = inbox.slice(after).find(match);
        if (found) return found;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no matching mail within ${timeoutMs} ms (${inbox.length} received)`);
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake);
            resolve();
          };
          waiters.add(wake);
          setTimeout(wake, Math.min(left, 100));
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type SmtpTestServer = Awaited<ReturnType<typeof startSmtpServer>>;

export const otpCodeOf = (mail: ReceivedMail): string => {
  const match = /code is (\d{6})/.exec(mail.text);
  if (!match?.[1]) throw new Error(`no OTP in mail: ${mail.text}`);
  return match[1];
};

export const resetTokenOf = (mail: ReceivedMail): { token: string; email: string } => {
  const match = /\/password-reset\/([A-Za-z0-9_-]+)\?email=([^\s]+)/.exec(mail.text);
  if (!match?.[1] || !match[2]) throw new Error(`no reset link in mail: ${mail.text}`);
  return { token: match[1], email: decodeURIComponent(match[2]) };
};
