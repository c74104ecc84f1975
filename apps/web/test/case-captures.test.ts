// The case page's 'Captured pages': what it offers (the address form, one sentence when capture is off
// or the case closed), what each capture shows by its status, when the list is asked again, and who
// is offered Remove; the results' 'Capture' picks the case the search was filed under. Rendered to
// static markup inside the providers the section reads.
import { type CaseCapture, type CaseDetail, captureMessages, messages, type User } from '@footprint/domain';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createElement, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { type CapturesAnswer, capturesKey, pollWhileRunning } from '../src/features/cases/api/captures.ts';
import { mayRemoveCapture, sameAddress, titleOf } from '../src/features/cases/captures.ts';
import { Captures } from '../src/features/cases/components/Captures.tsx';
import {
  CaptureButton,
  CaptureTargetProvider,
  preferredCase,
} from '../src/features/results/components/CaptureButton.tsx';
import { AuthContext, type AuthContextValue } from '../src/lib/auth-context.ts';

const t = messages.captures;
const officer = { id: 'u-officer', name: 'Case Officer', email: 'officer@example.test' };
const colleague = { id: 'u-colleague', name: 'Colleague', email: 'colleague@example.test' };

const capture = (patch: Partial<CaseCapture>): CaseCapture => ({
  id: 'c-1',
  case_id: 'case-1',
  url: 'http://127.0.0.1:4100/page',
  status: 'done',
  failure: null,
  error: null,
  requested_by: officer,
  requested_at: '2026-12-05T10:00:00.000Z',
  lookup_id: null,
  captured_at: '2026-12-05T10:00:04.000Z',
  final_url: 'http://127.0.0.1:4100/page',
  title: 'A synthetic page',
  http_status: 200,
  files: [{ name: 'page.png', media_type: 'image/png', sha256: 'a'.repeat(64), bytes: 2048 }],
  truncated: [],
  manifest_sha256: 'b'.repeat(64),
  preview: true,
  removal: null,
  ...patch,
});

const detail = (patch: Partial<CaseDetail> = {}): CaseDetail => ({
  id: 'case-1',
  title: 'Synthetic case',
  reference: 'OP-TEST',
  status: 'open',
  legal_basis: null,
  legal_hold: null,
  owner: officer,
  role: 'owner',
  items_count: 0,
  created_at: '2026-12-05T09:00:00.000Z',
  updated_at: '2026-12-05T09:00:00.000Z',
  members: [],
  notes: [],
  items: [],
  entities: [],
  timeline: [],
  units: [],
  shares: true,
  ...patch,
});

function withProviders(
  node: ReactNode,
  seed?: (client: QueryClient) => void,
  user: typeof officer = officer,
) {
  const client = new QueryClient();
  seed?.(client);
  const auth = {
    user: { ...user, role: 'user' } as unknown as User,
    loading: false,
    setUser: () => {},
    mergeUser: () => {},
    refetch: async () => null,
    login: async () => {
      throw new Error('not in this test');
    },
    logout: async () => {},
  } satisfies AuthContextValue;
  return renderToStaticMarkup(
    createElement(
      QueryClientProvider,
      { client },
      createElement(AuthContext.Provider, { value: auth }, createElement(MemoryRouter, null, node)),
    ),
  );
}

const render = (caseDetail: CaseDetail, answer: CapturesAnswer, user = officer) =>
  withProviders(
    createElement(Captures, { detail: caseDetail }),
    (client) => client.setQueryData(capturesKey(caseDetail.id), answer),
    user,
  );

describe("a case's captured pages", () => {
  it('offers the address form where capture is on and the case open', () => {
    const html = render(detail(), { data: [], available: true });
    expect(html).toContain(t.urlLabel);
    expect(html).toContain(`>${t.capture}<`);
    expect(html).toContain(t.empty);
    expect(html).not.toContain(captureMessages.unavailable);
  });

  it('says in one sentence that capture is off, with no button', () => {
    const html = render(detail(), { data: [capture({})], available: false });
    expect(html).toContain(captureMessages.unavailable);
    expect(html).not.toContain(`>${t.capture}<`);
    expect(render(detail(), { data: [], available: false })).not.toContain(t.empty);
    // What was captured before stays listed.
    expect(html).toContain('A synthetic page');
  });

  it('offers no capture on a closed case', () => {
    const html = render(detail({ status: 'closed' }), { data: [capture({})], available: true });
    expect(html).toContain(captureMessages.closed);
    expect(html).not.toContain(`>${t.capture}<`);
  });

  it('lists each capture by its status', () => {
    const html = render(detail(), {
      available: true,
      data: [
        capture({
          id: 'c-4',
          status: 'queued',
          title: null,
          captured_at: null,
          final_url: null,
          http_status: null,
          files: [],
          manifest_sha256: null,
        }),
        capture({
          id: 'c-3',
          status: 'failed',
          failure: 'unreachable',
          error: 'The page could not be reached.',
          title: null,
          url: 'http://127.0.0.1:4100/gone',
          final_url: null,
          captured_at: null,
          http_status: null,
          files: [],
        }),
        capture({
          id: 'c-2',
          status: 'removed',
          files: [],
          removal: { at: '2026-12-05T11:00:00.000Z', by: colleague, reason: 'Captured the wrong page' },
        }),
        capture({ final_url: 'http://127.0.0.1:4100/landing', http_status: 301 }),
      ],
    });
    expect(html).toContain(t.listLabel(4));
    expect(html).toContain(t.status.queued);
    expect(html).toContain(t.inProgress);
    expect(html).toContain('The page could not be reached.');
    // Without a title the address stands for it.
    expect(html).toContain('>http://127.0.0.1:4100/gone</h3>');
    expect(html).toContain('Removed by Colleague on');
    expect(html).toContain('Captured the wrong page');
    // The final address only where it differs from the one asked for, and the HTTP status.
    expect(html.match(new RegExp(t.finalUrl, 'g'))).toHaveLength(1);
    const text = html.replace(/<[^>]+>/g, '');
    expect(text).toContain('http://127.0.0.1:4100/landing');
    // An address may wrap after a slash, not inside a word.
    expect(html).toContain('4100/<wbr/>');
    expect(html).not.toContain('break-all');
    expect(html).toContain('>301<');
    // Preview and remove for the one with files only; the removed one's ZIP still holds its signed
    // manifest and the signed removal.
    expect(html.match(new RegExp(`>${t.preview}<`, 'g'))).toHaveLength(1);
    expect(html.match(new RegExp(`>${t.download}<`, 'g'))).toHaveLength(2);
    expect(html.match(new RegExp(`>${t.remove}<`, 'g'))).toHaveLength(1);
    expect(html).toContain('href="/cases/case-1/captures/c-1"');
  });

  it('asks again every two seconds while a capture is queued or running, and then stops', () => {
    expect(pollWhileRunning(undefined)).toBe(false);
    expect(pollWhileRunning({ available: true, data: [capture({})] })).toBe(false);
    expect(pollWhileRunning({ available: true, data: [capture({}), capture({ status: 'running' })] })).toBe(
      2000,
    );
    expect(pollWhileRunning({ available: true, data: [capture({ status: 'queued' })] })).toBe(2000);
  });

  it('offers Remove to whoever asked for the capture, the case owner, their supervisor and an admin', () => {
    const done = capture({});
    expect(mayRemoveCapture(detail(), done, 'someone')).toBe(true);
    expect(mayRemoveCapture(detail({ role: 'admin' }), done, 'someone')).toBe(true);
    expect(mayRemoveCapture(detail({ role: 'supervisor' }), done, 'someone')).toBe(true);
    expect(mayRemoveCapture(detail({ role: 'member' }), done, officer.id)).toBe(true);
    expect(mayRemoveCapture(detail({ role: 'member' }), done, colleague.id)).toBe(false);
    expect(mayRemoveCapture(detail({ role: 'unit' }), done, colleague.id)).toBe(false);
    expect(mayRemoveCapture(detail(), capture({ status: 'removed' }), officer.id)).toBe(false);
    expect(mayRemoveCapture(detail(), capture({ status: 'running' }), officer.id)).toBe(false);
  });

  it('names a capture by its title or its address, and knows one address written two ways', () => {
    expect(titleOf({ title: '  ', url: 'http://a.test/' })).toBe('http://a.test/');
    expect(titleOf({ title: 'Page', url: 'http://a.test/' })).toBe('Page');
    expect(sameAddress('http://a.test', 'http://a.test/')).toBe(true);
    expect(sameAddress('http://a.test/x', 'http://a.test/y')).toBe(false);
  });
});

describe("a result's 'Capture'", () => {
  it('chooses the case the search was filed under, else the first open case', () => {
    const cases = [
      { id: 'a', reference: 'OP-NEW' },
      { id: 'b', reference: 'OP-KITE' },
    ];
    expect(preferredCase(cases, 'op-kite')).toBe('b');
    expect(preferredCase(cases, undefined)).toBe('a');
    expect(preferredCase(cases, 'OP-OTHER')).toBe('a');
    expect(preferredCase([], 'OP-KITE')).toBe('');
  });

  it("is drawn only on one's own search, for a web address, where the server captures pages", () => {
    const button = (
      url: string,
      target: { lookupId: string; caseReference: undefined } | null,
      available: boolean | null = true,
    ) =>
      withProviders(
        createElement(CaptureTargetProvider, { target }, createElement(CaptureButton, { url })),
        (client) => {
          if (available !== null) client.setQueryData(['captures', 'status'], { available });
        },
      );
    const target = { lookupId: 'l-1', caseReference: undefined };
    expect(button('https://github.example.test/asha', target)).toContain(
      `aria-label="${t.captureActionLabel('https://github.example.test/asha')}"`,
    );
    // Not where the server does not capture pages, nor before it has said whether it does.
    expect(button('https://github.example.test/asha', target, false)).toBe('');
    expect(button('https://github.example.test/asha', target, null)).toBe('');
    expect(button('https://github.example.test/asha', null)).toBe('');
    expect(button('javascript:alert(1)', target)).toBe('');
  });
});
