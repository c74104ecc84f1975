import { DEVICE_ID_HEADER } from '@footprint/domain';
import type { FastifyRequest } from 'fastify';

/** The API key a request came with (http/auth.ts): its searches and audit rows name it. */
export interface ApiKeyActor {
  id: string;
  name: string;
  /** Credits its searches may spend per calendar month (UTC); null: no cap. */
  monthlyCreditCap: number | null;
}

/** Who is asking, from where: every audit row and every search carries it. */
export interface ClientContext {
  ip: string;
  deviceId: string | undefined;
  userAgent: string | undefined;
  /** Set when the request was authenticated with an API key rather than a session. */
  apiKey?: ApiKeyActor | undefined;
}

const DEVICE_ID = /^[A-Za-z0-9-]{8,64}$/;

/** The device id the browser generated once (spec §3); anything that does not look like one is ignored. */
export function deviceIdOf(request: FastifyRequest): string | undefined {
  const raw = request.headers[DEVICE_ID_HEADER];
  const value = Array.isArray(raw) ? raw[0] : raw;
  return value && DEVICE_ID.test(value) ? value : undefined;
}

export function clientOf(request: FastifyRequest): ClientContext {
  const ua = request.headers['user-agent'];
  return {
    ip: request.ip,
    deviceId: deviceIdOf(request),
    userAgent: typeof ua === 'string' ? ua : undefined,
    ...(request.apiKey ? { apiKey: request.apiKey } : {}),
  };
}

export function bearerOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer\s+([A-Za-z0-9_-]{20,200})$/i.exec(header.trim());
  return match?.[1];
}
