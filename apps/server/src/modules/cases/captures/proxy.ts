/**
 * The one way out for the capture browser: a forward proxy on 127.0.0.1, one per capture, that the
 * browser is told to use for every request (loopback included). Chromium resolves no name itself; this
 * proxy does, through the address guard (security/address-guard.ts), so the address checked is the
 * address connected to and a DNS answer cannot swap in a private one. It also counts the bytes that
 * come back and cuts every connection once the capture's budget is spent.
 *
 * Plain HTTP is forwarded request by request; HTTPS goes through CONNECT tunnels (the proxy sees the
 * host and port, never the content). Anything else (an HTTP upgrade without a tunnel) is refused. The
 * proxy asks for credentials of its own, so another local process cannot use it while it listens.
 */
import { randomBytes } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import net, { isIP } from 'node:net';
import type { Duplex } from 'node:stream';
import { ADDRESS_REFUSED, type AddressGuard } from '../../../security/address-guard.ts';

export interface CaptureProxy {
  /** http://127.0.0.1:port */
  server: string;
  username: string;
  password: string;
  /** Hosts (host:port) the guard refused during the capture. */
  refused: string[];
  /** Bytes received from upstream so far. */
  bytes(): number;
  /** Whether the byte budget was spent (connections were cut). */
  overBudget(): boolean;
  /** Settles when the byte budget is spent (never otherwise): the capture stops waiting for the page. */
  spent: Promise<void>;
  close(): Promise<void>;
}

/** The header a refused plain-HTTP request is answered with, so the capture can tell it apart. */
export const REFUSED_HEADER = 'x-footprint-capture-refused';

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-authenticate',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** host and port of "host:port" or "[v6]:port". */
function splitHostPort(value: string, defaultPort: number): { host: string; port: number } | undefined {
  const match = /^(?:\[([^\]]+)\]|([^:]+))(?::(\d{1,5}))?$/.exec(value);
  if (!match) return undefined;
  const port = match[3] ? Number(match[3]) : defaultPort;
  if (port < 1 || port > 65_535) return undefined;
  return { host: (match[1] ?? match[2])!, port };
}

export async function startCaptureProxy(options: {
  guard: AddressGuard;
  maxBytes: number;
}): Promise<CaptureProxy> {
  const { guard, maxBytes } = options;
  const username = 'capture';
  const password = randomBytes(18).toString('base64url');
  const expected = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
  const refused: string[] = [];
  const sockets = new Set<Duplex>();
  let received = 0;
  let spent = false;
  let markSpent = () => {};
  const spentPromise = new Promise<void>((resolve) => {
    markSpent = resolve;
  });

  /** Counts bytes from upstream; past the budget every open connection is cut. */
  const count = (chunk: Buffer) => {
    received += chunk.length;
    if (received > maxBytes && !spent) {
      spent = true;
      for (const socket of sockets) socket.destroy();
      markSpent();
    }
  };
  const track = (socket: Duplex) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  };
  /** A literal IP is checked here; a name through the guarded lookup when the socket connects. */
  const literalRefused = (host: string, port: number) => isIP(host) !== 0 && !guard.allowed(host, port);
  const authorized = (req: IncomingMessage) => req.headers['proxy-authorization'] === expected;

  const server = http.createServer((req: IncomingMessage, res: ServerResponse) => {
    track(req.socket);
    if (!authorized(req)) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="capture"' }).end();
      return;
    }
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end();
      return;
    }
    const port = Number(target.port || 80);
    const host = target.hostname.replace(/^\[|\]$/g, '');
    const refuse = () => {
      refused.push(`${host}:${port}`);
      if (!res.headersSent) res.writeHead(403, { [REFUSED_HEADER]: '1', 'content-type': 'text/plain' });
      res.end('The capture does not reach this address.');
    };
    if (target.protocol !== 'http:' || spent) {
      res.writeHead(spent ? 507 : 400).end();
      return;
    }
    if (literalRefused(host, port)) return refuse();
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(([name]) => !HOP_BY_HOP.has(name.toLowerCase())),
    );
    const upstream = http.request(
      {
        host,
        port,
        method: req.method,
        path: `${target.pathname}${target.search}`,
        headers,
        lookup: guard.lookupFor(port),
      },
      (answer) => {
        const answerHeaders = Object.fromEntries(
          Object.entries(answer.headers).filter(([name]) => !HOP_BY_HOP.has(name.toLowerCase())),
        );
        res.writeHead(answer.statusCode ?? 502, answerHeaders);
        answer.on('data', count);
        answer.pipe(res);
      },
    );
    upstream.on('socket', track);
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === ADDRESS_REFUSED) return refuse();
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });

  server.on('connect', (req: IncomingMessage, client: Duplex, head: Buffer) => {
    track(client);
    if (!authorized(req)) {
      client.end(
        'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="capture"\r\n\r\n',
      );
      return;
    }
    const target = splitHostPort(req.url ?? '', 443);
    if (!target || spent) {
      client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      return;
    }
    const { host, port } = target;
    const refuse = () => {
      refused.push(`${host}:${port}`);
      client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
    };
    if (literalRefused(host, port)) return refuse();
    const upstream = net.connect({ host, port, lookup: guard.lookupFor(port) });
    track(upstream);
    upstream.once('connect', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.on('data', count);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === ADDRESS_REFUSED) return refuse();
      client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
    });
  });

  // A WebSocket over plain HTTP (ws://) would need its own forwarding: refused.
  server.on('upgrade', (_req: IncomingMessage, socket: Duplex) => {
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    server: `http://127.0.0.1:${port}`,
    username,
    password,
    refused,
    bytes: () => received,
    overBudget: () => spent,
    spent: spentPromise,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Every connection, those the browser opened without a request yet (preconnects) included.
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
      }),
  };
}
