import fastifyMultipart from '@fastify/multipart';
import {
  BULK_TYPES,
  type BulkType,
  bulkBody,
  bulkEventsResponse,
  bulkIdParams,
  bulkJobListResponse,
  bulkJobResponse,
  bulkPreviewResponse,
  bulkResultsQuery,
  bulkResultsResponse,
  bulkRowsQuery,
  bulkRowsResponse,
  bulkUpload,
  listScopeQuery,
  messages,
} from '@footprint/domain';
import { BulkheadRejectedError, bulkhead } from 'cockatiel';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  badUpload,
  bulkBusy,
  DomainError,
  fileTooLarge,
  parseInput,
  tooManyRows,
  validationError,
} from '../../errors.ts';
import { apiKeyScope, type Guards } from '../../http/auth.ts';
import { clientOf } from '../../http/context.ts';
import type { ContractTypeProvider } from '../../http/contracts.ts';
import { REFUSALS, type Refusal } from '../../http/responses.ts';
import { logFailure } from '../../outage.ts';
import { bulkResults } from './export.ts';
import { BULK_FILE_MAX_BYTES, entriesOfFile, entriesOfValues } from './parse.ts';
import { type BulkInput, type BulkService, isFinal } from './service.ts';

/** Large enough for 10,000 long e-mail addresses as JSON; a larger list is refused by its row count. */
const JSON_BODY_LIMIT = 2 * 1024 * 1024;
/** How often the events stream looks at the job (at most ~4 events a second) and sends a heartbeat. */
const EVENTS_POLL_MS = 250;
const EVENTS_HEARTBEAT_MS = 15_000;

/**
 * Uploaded files read at a time in this process, and how many more may wait for a place; one more is
 * a 503 (bulk_busy) with Retry-After. A read is bounded (parse.ts), so a wait is short, and a burst of
 * hostile files cannot add up.
 */
export const BULK_PARSE_CONCURRENCY = 2;
export const BULK_PARSE_QUEUE = 4;
const BULK_BUSY_RETRY_SECONDS = 2;
const readers = bulkhead(BULK_PARSE_CONCURRENCY, BULK_PARSE_QUEUE);

/** A file's list, read in one of the few places (BULK_PARSE_CONCURRENCY). */
async function readFile(buffer: Buffer) {
  try {
    return await readers.execute(() => entriesOfFile(buffer));
  } catch (error) {
    if (error instanceof BulkheadRejectedError) throw bulkBusy(BULK_BUSY_RETRY_SECONDS);
    throw error;
  }
}

const refusal = (message: string, field: string) => validationError({ [field]: [message] });

/**
 * The list of a preview or a new job: JSON `{type, values, case_reference?}` (bulkBody), or
 * multipart/form-data with a `file` (CSV or XLSX) and the fields `type` and `case_reference`.
 */
async function readInput(request: FastifyRequest): Promise<BulkInput> {
  if (!request.isMultipart()) {
    const body = request.body as { values?: unknown } | undefined;
    // The row limit's own message before zod's generic one, whatever else is wrong.
    if (Array.isArray(body?.values) && body.values.length > 10_000) throw tooManyRows();
    const input = parseInput(bulkBody, request.body);
    return {
      type: input.type,
      entries: entriesOfValues(input.values),
      fileName: null,
      caseReference: input.case_reference,
    };
  }
  let file: { name: string; buffer: Buffer } | undefined;
  const fields: Record<string, string> = {};
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file' || file) {
          part.file.resume();
          throw refusal(messages.bulkJobs.unknownField(part.fieldname), part.fieldname);
        }
        file = { name: part.filename, buffer: await part.toBuffer() };
      } else if (part.fieldname === 'type' || part.fieldname === 'case_reference') {
        fields[part.fieldname] = typeof part.value === 'string' ? part.value : '';
      } else {
        throw refusal(messages.bulkJobs.unknownField(part.fieldname), part.fieldname);
      }
    }
  } catch (error) {
    if (error instanceof DomainError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      throw fileTooLarge(BULK_FILE_MAX_BYTES / 1024 / 1024);
    }
    if (typeof code === 'string' && code.startsWith('FST_')) {
      throw badUpload((error as Error).message);
    }
    throw error;
  }
  const type = fields.type?.trim();
  if (!type || !(BULK_TYPES as readonly string[]).includes(type)) {
    throw refusal(messages.bulkJobs.typeRequired, 'type');
  }
  if (!file) throw refusal(messages.bulkJobs.noFile, 'file');
  return {
    type: type as BulkType,
    entries: await readFile(file.buffer),
    fileName: file.name,
    caseReference: fields.case_reference ?? null,
  };
}

type ContractApi = ReturnType<typeof contractApiOf>;
const contractApiOf = (app: FastifyInstance) => app.withTypeProvider<ContractTypeProvider>();

/** What every bulk route shares. */
function bulkRouteContext(deps: { bulk: BulkService; guards: Guards }) {
  const { bulk, guards } = deps;
  // Trial accounts run single lookups only.
  const preHandler = [guards.authenticate, guards.requireLive];
  // API keys with the bulk scope reach every bulk route.
  const scoped = apiKeyScope('bulk');
  const tags = ['Bulk lookups'];
  const uploadRefusals = {
    400: 'A malformed upload.',
    409: REFUSALS.closedCase,
    413: 'The file is larger than the upload limit.',
    422: 'No valid row, too many rows, an unreadable file, or a missing `type` or `file` (`errors` per field).',
    503: {
      description: 'Too many files are being read: try again after Retry-After seconds (`retry_after`).',
      schema: 'RetryLater',
      retryAfter: true,
    } satisfies Refusal,
  };
  const upload =
    ' The list is JSON `{type, values, case_reference?}` or multipart/form-data with a `file` (CSV or ' +
    `XLSX, at most ${BULK_FILE_MAX_BYTES / 1024 / 1024} MB and 10,000 rows: the first column, or the ` +
    'column headed phone, number or email) and the fields `type` and `case_reference`. Each value is ' +
    'checked as GET /api/tel or /api/email checks it (a 10-digit number takes the dial code 91; +, ' +
    'spaces and dashes are dropped); repeats are folded; bad rows are listed and not run. Live accounts only.';

  return { bulk, preHandler, scoped, tags, uploadRefusals, upload };
}

type BulkRouteContext = ReturnType<typeof bulkRouteContext>;

/** The two routes that take a list: the upload parser is registered for them alone. */
async function bulkUploadRoutes(app: FastifyInstance, context: BulkRouteContext) {
  const { bulk, preHandler, scoped, tags, uploadRefusals, upload } = context;
  // Uploads only here: the parser stays out of every other route.
  await app.register(async (scope) => {
    await scope.register(fastifyMultipart, {
      limits: { fileSize: BULK_FILE_MAX_BYTES, files: 1, fields: 4, fieldSize: 1024, parts: 6 },
    });
    const api = scope.withTypeProvider<ContractTypeProvider>();

    api.post(
      '/api/bulk/preview',
      {
        preHandler,
        ...scoped,
        ...scoped,
        bodyLimit: JSON_BODY_LIMIT,
        schema: {
          summary: 'What a bulk lookup would run and cost (nothing is charged or stored)',
          description: `Counts the rows, the valid distinct queries and the repeats, lists the bad rows, and prices the job.${upload}`,
          tags,
          body: bulkBody,
          multipart: bulkUpload,
          refusals: uploadRefusals,
          response: { 200: bulkPreviewResponse },
        },
      },
      async (request) => bulk.preview(request.user!, await readInput(request)),
    );

    api.post(
      '/api/bulk',
      {
        preHandler,
        ...scoped,
        ...scoped,
        bodyLimit: JSON_BODY_LIMIT,
        schema: {
          summary: 'Start a bulk lookup',
          description:
            'Stores the list as a job and queues it (202). Each row runs through the paid search like a ' +
            'single lookup (charged, free within the cache window, refunded when no source answers), filed ' +
            'under the case reference. When the credits run out the job stops and the rest is skipped. A list ' +
            `with no valid row is 422; a balance below one row's price is 402. A list of more rows than the ` +
            "admin's approval_bulk_rows is stored as `awaiting_approval` with `approval_id`, the request a " +
            'supervisor of the caller decides (GET /api/approvals/{approval_id}): approved, it is queued; ' +
            `rejected or expired, it is \`not_approved\` and no row runs.${upload}`,
          tags,
          body: bulkBody,
          multipart: bulkUpload,
          refusals: { ...uploadRefusals, 402: REFUSALS.insufficient },
          response: { 202: bulkJobResponse },
        },
      },
      async (request, reply) => {
        const job = await bulk.create(request.user!, clientOf(request), await readInput(request));
        return reply.status(202).send(job);
      },
    );
  });
}

/** A job: the list, one job, its progress events. */
function bulkJobRoutes(api: ContractApi, context: BulkRouteContext) {
  const { bulk, preHandler, scoped, tags } = context;

  api.get(
    '/api/bulk',
    {
      preHandler,
      ...scoped,
      schema: {
        summary: "The caller's bulk lookups, newest first (scope=unit: also their units' people's, named)",
        tags,
        querystring: listScopeQuery,
        response: { 200: bulkJobListResponse },
      },
    },
    async (request) => ({
      data: await bulk.list(request.user!, parseInput(listScopeQuery, request.query).scope),
    }),
  );

  api.get<{ Params: { id: string } }>(
    '/api/bulk/:id',
    {
      preHandler,
      ...scoped,
      schema: {
        summary: 'A bulk lookup: its status and progress',
        tags,
        params: bulkIdParams,
        response: { 200: bulkJobResponse },
      },
    },
    async (request) => bulk.get(request.user!, request.params.id),
  );

  api.get<{ Params: { id: string } }>(
    '/api/bulk/:id/events',
    {
      preHandler,
      ...scoped,
      schema: {
        summary: 'A bulk lookup’s progress as server-sent events',
        tags,
        params: bulkIdParams,
        response: { 200: bulkEventsResponse },
      },
    },
    async (request, reply) => {
      const user = request.user!;
      // The first answer checks the id (404 for another user's job) before the stream opens.
      const first = await bulk.get(user, request.params.id);
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
        'x-content-type-options': 'nosniff',
      });
      let closed = false;
      raw.on('close', () => {
        closed = true;
      });
      let last = '';
      let lastWrite = Date.now();
      const send = (text: string) => {
        raw.write(text);
        lastWrite = Date.now();
      };
      let job = first;
      try {
        while (!closed) {
          const json = JSON.stringify(job);
          if (json !== last) {
            send(`data: ${json}\n\n`);
            last = json;
          } else if (Date.now() - lastWrite >= EVENTS_HEARTBEAT_MS) send(': heartbeat\n\n');
          if (isFinal(job.status)) break;
          await new Promise((resolve) => setTimeout(resolve, EVENTS_POLL_MS));
          if (closed) break;
          const next = await bulk.snapshot(user, job.id);
          if (!next) break;
          job = next;
        }
      } catch (err) {
        logFailure(request.log, err, {}, 'bulk events stream failed');
      } finally {
        if (!raw.writableEnded) raw.end();
      }
    },
  );
}

/** A job's controls (pause, resume, cancel), its rows and its results. */
function bulkControlRoutes(api: ContractApi, context: BulkRouteContext) {
  const { bulk, preHandler, scoped, tags } = context;

  const transition = (action: 'pause' | 'resume' | 'cancel', summary: string) =>
    api.post<{ Params: { id: string } }>(
      `/api/bulk/:id/${action}`,
      {
        preHandler,
        ...scoped,
        ...scoped,
        schema: {
          summary,
          description:
            'Pause stops taking new rows (rows in flight finish); resume continues a paused job; cancel ' +
            'skips the rows not yet run. Answers the job; a transition its status does not allow is 409.',
          tags,
          params: bulkIdParams,
          response: { 200: bulkJobResponse },
          refusals: { 409: 'A transition the job’s status does not allow (`status`).' },
        },
      },
      async (request) => bulk[action](request.user!, clientOf(request), request.params.id),
    );
  transition('pause', 'Pause a bulk lookup');
  transition('resume', 'Resume a paused bulk lookup');
  transition('cancel', 'Cancel a bulk lookup');

  api.get<{ Params: { id: string } }>(
    '/api/bulk/:id/rows',
    {
      preHandler,
      ...scoped,
      schema: {
        summary: 'A page of a bulk lookup’s rows (100 a page), in list order',
        tags,
        params: bulkIdParams,
        querystring: bulkRowsQuery,
        response: { 200: bulkRowsResponse },
      },
    },
    async (request) => {
      const { page } = parseInput(bulkRowsQuery, request.query);
      return bulk.rows(request.user!, request.params.id, page);
    },
  );

  api.get<{ Params: { id: string } }>(
    '/api/bulk/:id/results',
    {
      preHandler,
      ...scoped,
      schema: {
        summary: 'A bulk lookup’s results as a CSV, JSON or XLSX download',
        tags,
        params: bulkIdParams,
        querystring: bulkResultsQuery,
        response: { 200: bulkResultsResponse },
        responseHeaders: { 'Content-Disposition': 'attachment; filename="…"' },
      },
    },
    async (request, reply) => {
      const { format } = parseInput(bulkResultsQuery, request.query);
      const { job, rows } = await bulk.results(request.user!, request.params.id);
      const file = await bulkResults(job, rows, format);
      return reply
        .header('content-type', file.mediaType)
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .header('cache-control', 'no-store')
        .send(file.body);
    },
  );
}

export async function bulkRoutes(app: FastifyInstance, deps: { bulk: BulkService; guards: Guards }) {
  const context = bulkRouteContext(deps);
  await bulkUploadRoutes(app, context);
  const api = app.withTypeProvider<ContractTypeProvider>();
  bulkJobRoutes(api, context);
  bulkControlRoutes(api, context);
}
