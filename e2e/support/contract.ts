/**
 * Holds every API answer a browser page receives to the product's OpenAPI document (fetched once per
 * server from its own GET /api/openapi.json): a status its operation does not document, a media type
 * that status does not document, or a JSON body its schema refuses is a violation of the test that
 * caused it. The API tests hold `inject` answers to the same document (apps/server/test/support).
 */
import { createResponseValidator } from '@footprint/contract-check';
import type { Page, Response } from 'playwright-core';

type Validator = ReturnType<typeof createResponseValidator>;
const validators = new Map<string, Promise<Validator>>();

const validatorOf = (origin: string): Promise<Validator> => {
  let found = validators.get(origin);
  if (!found) {
    found = fetch(`${origin}/api/openapi.json`)
      .then((res) => res.json())
      .then((doc) => createResponseValidator(doc));
    validators.set(origin, found);
  }
  return found;
};

/** The violations of one answer a spec's own call received (`api()` in support/api.ts). */
export async function violationsOfAnswer(answer: {
  method: string;
  url: string;
  status: number;
  contentType: string | undefined;
  body: unknown;
}): Promise<string[]> {
  const { origin, pathname } = new URL(answer.url);
  const validator = await validatorOf(origin);
  if (!validator.match(answer.method, answer.url)) {
    return pathname.startsWith('/api/') && answer.status !== 404
      ? [`${answer.method} ${pathname} → ${answer.status}: not in the document`]
      : [];
  }
  return validator.validate(answer).map((v) => `${v.operation} → ${v.status}: ${v.problem}`);
}

/**
 * The operation statuses already held to the document in this test file. Reading an answer back from
 * the browser costs round trips, so each operation's status is checked on its first real answer (its
 * status, media type and body), and its later answers with that status are let by.
 */
const checkedOnce = new Set<string>();

async function violationsOf(response: Response): Promise<string[]> {
  const request = response.request();
  const method = request.method();
  const url = response.url();
  const { origin, pathname } = new URL(url);
  const validator = await validatorOf(origin);
  const found = validator.match(method, url);
  if (!found) {
    return pathname.startsWith('/api/') && response.status() !== 404
      ? [`${method} ${pathname} → ${response.status()}: not in the document`]
      : [];
  }
  const key = `${origin} ${method} ${found.path} ${response.status()}`;
  if (checkedOnce.has(key)) return [];
  // An answer a test made up (`route.fulfill`, to stage a failure) never came from a server: only
  // what the product answered is held to its document.
  if ((await response.serverAddr()) === null) return [];
  const contentType = response.headers()['content-type'];
  let body: unknown;
  if (/json/.test(contentType ?? '')) {
    try {
      body = await response.json();
    } catch {
      return []; // the page went away before the body could be read: nothing to hold it to
    }
  }
  checkedOnce.add(key);
  return validator
    .validate({ method, url, status: response.status(), contentType, body })
    .map((v) => `${v.operation} → ${v.status}: ${v.problem}`);
}

/**
 * Watches the page's fetches to `isProduct` origins; `settle()` waits for the answers still being
 * read and gives the violations found.
 */
export function watchContract(page: Page, isProduct: (origin: string) => boolean) {
  const pending: Promise<string[]>[] = [];
  page.on('response', (response) => {
    const type = response.request().resourceType();
    if (type !== 'fetch' && type !== 'xhr') return;
    if (!isProduct(new URL(response.url()).origin)) return;
    pending.push(violationsOf(response).catch((error) => [`${response.url()}: ${String(error)}`]));
  });
  return {
    async settle(): Promise<string[]> {
      return (await Promise.all(pending)).flat();
    },
  };
}
