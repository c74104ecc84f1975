// The outage classifier and trackers (src/outage.ts): which errors mean a dependency is unreachable,
// and that an outage and its recovery are logged once each however many errors report it.
import { DrizzleQueryError } from 'drizzle-orm/errors';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { registerErrorHandler } from '../../src/http/errors.ts';
import {
  DependencyUnavailableError,
  dependencyState,
  errorName,
  noteOutage,
  noteReachable,
  outageOf,
  setOutageLog,
} from '../../src/outage.ts';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('outageOf', () => {
  it('names the database for PostgreSQL and pg connection errors, also wrapped by Drizzle', () => {
    const refused = withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432');
    expect(outageOf(refused)).toBe('database');
    expect(outageOf(new DrizzleQueryError('select 1', [], refused))).toBe('database');
    expect(outageOf(withCode('57P01', 'terminating connection due to administrator command'))).toBe(
      'database',
    );
    expect(outageOf(withCode('57P03', 'the database system is starting up'))).toBe('database');
    expect(outageOf(withCode('08006'))).toBe('database');
    expect(outageOf(new Error('Connection terminated unexpectedly'))).toBe('database');
    expect(outageOf(new Error('timeout exceeded when trying to connect'))).toBe('database');
    // Node's connect to a name with two addresses fails with both.
    expect(outageOf(new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')]))).toBe(
      'database',
    );
    expect(errorName(new DrizzleQueryError('select 1', [], refused))).toBe('ECONNREFUSED');
  });

  it('names the dependency an error was tagged with, and nothing for other errors', () => {
    expect(outageOf(new DependencyUnavailableError('smtp', withCode('ECONNECTION')))).toBe('smtp');
    expect(outageOf(new DependencyUnavailableError('redis', new Error('closed')))).toBe('redis');
    expect(outageOf(new Error('boom'))).toBeUndefined();
    expect(outageOf(withCode('23505', 'duplicate key'))).toBeUndefined();
    expect(outageOf(new DrizzleQueryError('select 1', [], withCode('42P01')))).toBeUndefined();
    expect(outageOf(undefined)).toBeUndefined();
  });
});

describe('the trackers', () => {
  const lines: Array<{ level: string; msg: string; fields: Record<string, unknown> }> = [];
  setOutageLog({
    error: (fields, msg) => lines.push({ level: 'error', msg, fields: fields as Record<string, unknown> }),
    warn: (fields, msg) => lines.push({ level: 'warn', msg, fields: fields as Record<string, unknown> }),
    info: (fields, msg) => lines.push({ level: 'info', msg, fields: fields as Record<string, unknown> }),
  });
  afterEach(() => noteReachable('redis'));

  it('logs an outage once and its recovery once, and the state says so meanwhile', () => {
    lines.length = 0;
    for (let i = 0; i < 10; i++) noteOutage('redis', withCode('ECONNREFUSED'));
    expect(dependencyState().redis.up).toBe(false);
    expect(dependencyState().database.up).toBe(true);
    noteReachable('redis');
    noteReachable('redis');
    expect(dependencyState().redis.up).toBe(true);
    expect(lines.map((line) => line.msg)).toEqual(['redis unreachable', 'redis reachable again']);
    expect(lines[0]!.fields).toEqual({ kind: 'redis', error: 'ECONNREFUSED' });
    expect(typeof lines[1]!.fields.downSeconds).toBe('number');
  });

  it('answers an outage error with a 503, Retry-After and the message, and a client reset stays a 4xx', async () => {
    const app = Fastify();
    registerErrorHandler(app);
    app.get('/down', async () => {
      throw new DrizzleQueryError('select 1', [], withCode('ECONNREFUSED'));
    });
    app.get('/client', async () => {
      throw Object.assign(withCode('ECONNRESET', 'aborted'), { statusCode: 400 });
    });
    const down = await app.inject({ url: '/down' });
    expect(down.statusCode).toBe(503);
    expect(down.headers['retry-after']).toBe('5');
    expect(down.json()).toEqual({
      message: 'The service is briefly unavailable. Please try again in a few seconds.',
      retry_after: 5,
    });
    expect((await app.inject({ url: '/client' })).statusCode).toBe(400);
    noteReachable('database');
    await app.close();
  });
});
