import { outboxResponse, textPage } from '@footprint/domain';
import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import { isLoopback } from '../../config.ts';
import { outboxLoopbackOnly } from '../../errors.ts';
import type { ContractTypeProvider } from '../../http/contracts.ts';
import { escapeHtml } from '../../http/html.ts';
import type { OutboxService } from './mailer.ts';

const tags = ['Development outbox'];

/** Headers a reverse proxy adds: a request that came through one came from elsewhere. */
const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip', 'x-forwarded-host'];

/** A Host header: a name or IPv4 address, or an IPv6 address in brackets, and an optional port. */
const HOST_HEADER = /^(?:\[([0-9a-f:.]+)\]|([a-z0-9.-]+))(?::\d{1,5})?$/i;

/** The host a Host header names (an IPv6 address without its brackets); undefined when it names none. */
function hostNameOf(header: string | undefined): string | undefined {
  const match = header ? HOST_HEADER.exec(header) : null;
  return match ? (match[1] ?? match[2])!.toLowerCase() : undefined;
}

/**
 * The outbox holds every sign-in code and reset link: it answers only a peer on the loopback
 * interface (the socket's address, whatever TRUST_PROXY says) with no forwarding header, and only
 * when the Host header names this machine (a loopback name or address) or APP_URL's host. A page on
 * another site that rebinds its DNS name to 127.0.0.1 reaches the socket from the developer's browser,
 * but its requests carry its own name as Host.
 */
export function loopbackOnly(appUrl: string): onRequestAsyncHookHandler {
  const appHost = hostNameOf(new URL(appUrl).host);
  return async (request) => {
    const forwarded = FORWARDING_HEADERS.some((name) => request.headers[name] !== undefined);
    const host = hostNameOf(request.headers.host);
    const named = host !== undefined && (isLoopback(host) || host === appHost);
    if (forwarded || !named || !isLoopback(request.socket.remoteAddress)) {
      throw outboxLoopbackOnly();
    }
  };
}

/**
 * The development outbox: with no SMTP server configured, OTP and reset mails land here so that a new
 * user can finish those flows on the embedded default. Registered only outside production when SMTP_URL
 * is unset, and answering only requests from this machine.
 */
export function outboxRoutes(app: FastifyInstance, outbox: OutboxService, appUrl: string) {
  const api = app.withTypeProvider<ContractTypeProvider>();
  const onRequest = loopbackOnly(appUrl);

  api.get(
    '/dev/outbox.json',
    {
      onRequest,
      schema: {
        summary: 'The mail the server would have sent, newest first (not in production; loopback only)',
        tags,
        response: { 200: outboxResponse },
      },
    },
    async () => outbox.list(),
  );

  api.get(
    '/dev/outbox',
    {
      onRequest,
      schema: {
        summary: 'The development outbox as a page (not in production; loopback only)',
        tags,
        response: { 200: textPage('text/html', 'The outbox page.') },
      },
    },
    async (_request, reply) => {
      const mails = await outbox.list();
      const rows = mails
        .map(
          (m) =>
            `<article><header><strong>${escapeHtml(m.subject)}</strong><span>to ${escapeHtml(m.to)}</span>` +
            `<time>${m.created_at}</time></header><pre>${escapeHtml(m.text)}</pre></article>`,
        )
        .join('');
      const html =
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Footprint dev outbox</title>' +
        '<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="stylesheet" href="/dev/outbox.css"></head>' +
        `<body><main><h1>Development outbox</h1><p>Mail the server would have sent (newest first). ` +
        `Set SMTP_URL to deliver real mail; this page then no longer exists (nor in production), and it only ever answers this machine.</p>` +
        `${rows || '<p>No mail yet.</p>'}</main></body></html>`;
      return reply.type('text/html; charset=utf-8').send(html);
    },
  );

  api.get(
    '/dev/outbox.css',
    {
      onRequest,
      schema: {
        summary: "The outbox page's stylesheet (not in production; loopback only)",
        tags,
        response: { 200: textPage('text/css', 'The stylesheet.') },
      },
    },
    async (_request, reply) =>
      reply
        .type('text/css')
        .send(
          'body{font-family:system-ui,sans-serif;background:#05080f;color:#e2e8f0;margin:0}main{max-width:860px;margin:0 auto;padding:24px}' +
            'article{border:1px solid #1f2a44;border-radius:12px;padding:12px 16px;margin:12px 0;background:#0f172a}' +
            'header{display:flex;gap:12px;flex-wrap:wrap;color:#94a3b8}header strong{color:#22d3ee}pre{white-space:pre-wrap;font-size:14px}',
        ),
  );
}
