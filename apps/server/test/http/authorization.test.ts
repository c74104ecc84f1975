// The authorization matrix, generated from the API's own description: every operation of
// GET /api/openapi.json against every kind of caller (anonymous, a trial account, a live account,
// another live account, an admin, an API key with the operation's scope and one without it). What each
// caller may do comes from the small declaration of each operation below, keyed by operation id; an
// operation of the document without a declaration fails the first test, so a new route cannot be left
// out. Path parameters are real ids of the live account's own resources where the declaration names
// one (so another account's 404 is proven on something that exists), else a random UUID.
import { randomUUID } from 'node:crypto';
import {
  API_KEY_SCOPES,
  type ApiKeyScope,
  CAPTURE_ARTEFACT_NAMES,
  CASE_EXPORT_FORMATS,
  DETAIL_KINDS,
  SEARCH_KIND_DECLARATIONS,
} from '@footprint/domain';
import type { OpenAPIV3_1 } from 'openapi-types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capturePreviews, caseCaptures } from '../../src/db/schema.ts';
import { operationIdOf } from '../../src/http/contracts.ts';
import { isApplicationRoute, routeTableOf } from '../../src/http/route-table.ts';
import { createTestApp, createUser, newDeviceId, signIn, type TestApp } from '../support/app.ts';

/**
 * Who may call an operation. public: anyone. signed-in: any signed-in account. live: live accounts
 * (and admins, who are live). admin: admins only.
 */
type Who = 'public' | 'signed-in' | 'live' | 'admin';

/** Resources of the live account whose real ids fill an operation's `{id}`. */
type Resource = 'lookup' | 'case' | 'bulk' | 'watch' | 'apiKey' | 'account' | 'unit';

interface Rule {
  who: Who;
  /** The API-key scope that may call it; without one, every key is refused (403). */
  scope?: ApiKeyScope;
  /**
   * `{id}` is this resource of the live account: any other account gets 404 (as if it did not exist),
   * and admins too unless `adminSees`. 'account' is a spare account, for the admin operations.
   */
  resource?: Resource;
  adminSees?: true;
  /**
   * What a supervisor of the live account's unit (or of the unit above it) gets on its resource: a
   * supervisor reads the work of the people they supervise but changes none of it. Unset: 404, as
   * for anyone else.
   */
  supervisor?: Outcome;
  /** Outcomes that differ from the rule's for some callers (the units' own operations). */
  outcomes?: Partial<Record<Actor, Outcome>>;
  /** A public operation that an API key is refused (logout: a key is ended by revoking it). */
  keysRefused?: true;
  /**
   * A valid request for the operation (else `{}` and no query), for operations on a resource that
   * check their input before looking the resource up: so that the others' 404 is what is tested.
   */
  send?: { body?: (of: Record<Resource, string>) => unknown; query?: string };
}

const open: Rule = { who: 'public' };
const user = (more: Omit<Rule, 'who'> = {}): Rule => ({ who: 'signed-in', ...more });
const live = (more: Omit<Rule, 'who'> = {}): Rule => ({ who: 'live', ...more });
const admin = (more: Omit<Rule, 'who'> = {}): Rule => ({ who: 'admin', ...more });

/** A unit's members are read by its unit admins and supervisors, and those of the unit above. */
const UNIT_READERS: Partial<Record<Actor, Outcome>> = {
  live: 404,
  keyWithScope: 403,
  investigatorSame: 404,
  supervisorSame: 'through',
  supervisorParent: 'through',
  unitAdminSame: 'through',
  unitAdminParent: 'through',
  supervisorOther: 404,
};
/** …and managed by its unit admins and those above: a supervisor may read them, not change them. */
const UNIT_MANAGERS: Partial<Record<Actor, Outcome>> = {
  ...UNIT_READERS,
  supervisorSame: 403,
  supervisorParent: 403,
};

const rules: Record<string, Rule> = {
  getApiHealth: open,
  getApiHealthLive: open,
  getApiHealthReady: open,
  getApiAttributions: open,
  // The API description: it describes the endpoints and holds no data.
  getApiOpenapiJson: open,
  getApiDocs: open,
  getApiDocsDocsCss: open,
  getApiDocsDocsJs: open,
  getSanctumCsrfCookie: open,
  getApiRegistrationStatus: open,
  postApiLogin: open,
  postApiRegister: open,
  postApiVerifyEmailOtp: open,
  postApiResendOtp: open,
  postApiLogout: { who: 'public', keysRefused: true },
  postForgotPassword: open,
  postApiResetPassword: open,
  // The sign-in token of the login answer is the credential: without one, a 422.
  postApiLoginSecondFactor: open,
  postApiLoginSecondFactorPasskeyOptions: open,
  // Whether a report file with this SHA-256 exists, and when it was made: nothing else (rate limited).
  postApiVerify: open,
  // The capture key and the check of a capture: for anyone holding one.
  postApiVerifyCapture: open,
  getWellKnownFootprintCaptureKeyPem: open,

  getApiUser: user(),
  getApiSecurity: user(),
  postApiSecurityTotpSetup: user(),
  postApiSecurityTotpConfirm: user(),
  postApiSecurityTotpRemove: user(),
  postApiSecurityRecoveryCodes: user(),
  postApiSecurityPasskeysOptions: user(),
  postApiSecurityPasskeys: user(),
  patchApiSecurityPasskeysById: user(),
  postApiSecurityPasskeysByIdRemove: user(),
  postApiSecuritySignOutEverywhere: user(),
  // API keys are made by a live account's session (test/api-keys: a key itself is refused).
  getApiApiKeys: live(),
  postApiApiKeys: live(),
  deleteApiApiKeysById: live({ resource: 'apiKey' }),

  getApiSources: user({ scope: 'lookups' }),
  getApiTel: user({ scope: 'lookups' }),
  getApiEmail: user({ scope: 'lookups' }),
  getApiUsername: user({ scope: 'lookups' }),
  // Each detail kind's lookup and report, as its declaration names them.
  ...Object.fromEntries(
    DETAIL_KINDS.flatMap((kind) => {
      const { request, access, reportPath } = SEARCH_KIND_DECLARATIONS[kind];
      const who = access.liveOnly ? live : user;
      return [
        [operationIdOf(request.method, request.path), who({ scope: access.scope })],
        [operationIdOf('POST', reportPath!), user({ scope: 'reports' })],
      ];
    }),
  ),
  postApiLeakDataFinderSlash: user({ scope: 'leaks' }),
  postApiLeakDataFinder: user({ scope: 'leaks' }),
  postApiCorporateIntelligence: live({ scope: 'intel' }),
  postApiVerificationId: live({ scope: 'intel' }),
  postApiGenerateReport: user({ scope: 'reports' }),
  postApiGenerateAiReport: user({ scope: 'reports' }),
  // Anyone signed in checks a report file; only its owner and admins see who made it.
  getApiReportsByIdVerify: user({ scope: 'reports' }),

  // History is personal: admins read the audit trail instead.
  getApiHistory: user(),
  getApiHistoryById: user({ scope: 'lookups', resource: 'lookup', supervisor: 'through' }),
  getApiHistoryByIdExport: user({
    resource: 'lookup',
    supervisor: 'through',
    send: { query: 'format=json' },
  }),
  getApiHistoryCsv: user(),
  getApiCreditsStatement: user(),
  getApiCaseReferencePolicy: user(),

  // A case is seen by its owner, its members and admins; anyone else gets 404.
  getApiCases: user(),
  postApiCases: user(),
  getApiCasesById: user({ resource: 'case', adminSees: true, supervisor: 'through' }),
  patchApiCasesById: user({
    resource: 'case',
    adminSees: true,
    supervisor: 403,
    send: { body: () => ({ title: 'Matrix case, renamed' }) },
  }),
  getApiCasesByIdBundle: user({ resource: 'case', adminSees: true, supervisor: 'through' }),
  getApiCasesByIdExportByFormat: user({ resource: 'case', adminSees: true, supervisor: 'through' }),
  // Captures are seen with their case; capturing is off here, so a capture asked for is a 409.
  getApiCapturesStatus: user(),
  getApiCasesByIdCaptures: user({ resource: 'case', adminSees: true, supervisor: 'through' }),
  postApiCasesByIdCaptures: user({
    resource: 'case',
    adminSees: true,
    supervisor: 'through',
    send: { body: () => ({ url: 'https://example.test/profile' }) },
  }),
  getApiCasesByIdCapturesByCaptureId: user({ resource: 'case', adminSees: true, supervisor: 'through' }),
  getApiCasesByIdCapturesByCaptureIdFilesByName: user({
    resource: 'case',
    adminSees: true,
    supervisor: 'through',
  }),
  getApiCasesByIdCapturesByCaptureIdPreview: user({
    resource: 'case',
    adminSees: true,
    supervisor: 'through',
  }),
  getApiCasesByIdCapturesByCaptureIdDownload: user({
    resource: 'case',
    adminSees: true,
    supervisor: 'through',
  }),
  deleteApiCasesByIdCapturesByCaptureId: user({
    resource: 'case',
    adminSees: true,
    supervisor: 'through',
    send: { body: () => ({ reason: 'Matrix removal' }) },
  }),
  getApiCasesByIdItems: user({ resource: 'case', adminSees: true, supervisor: 'through' }),
  postApiCasesByIdItems: user({
    resource: 'case',
    adminSees: true,
    supervisor: 'through',
    send: { body: (of) => ({ lookup_id: of.lookup }) },
  }),
  postApiCasesByIdMembers: user({
    resource: 'case',
    adminSees: true,
    supervisor: 403,
    send: { body: () => ({ email: 'nobody-matrix@example.test' }) },
  }),
  deleteApiCasesByIdMembersByUserId: user({ resource: 'case', adminSees: true, supervisor: 403 }),
  // …and place or release a legal hold on it.
  putApiCasesByIdHold: user({
    resource: 'case',
    adminSees: true,
    supervisor: 'through',
    send: { body: () => ({ reason: 'Matrix hold' }) },
  }),
  deleteApiCasesByIdHold: user({ resource: 'case', adminSees: true, supervisor: 'through' }),
  // The owner, the owner's supervisors and admins share a case with a unit.
  postApiCasesByIdUnits: user({
    resource: 'case',
    adminSees: true,
    supervisor: 'through',
    send: { body: () => ({ unit_id: spareUnitId }) },
  }),
  deleteApiCasesByIdUnitsByUnitId: user({ resource: 'case', adminSees: true, supervisor: 'through' }),
  postApiCasesByIdNotes: user({
    resource: 'case',
    adminSees: true,
    supervisor: 'through',
    send: { body: () => ({ body: 'Matrix note' }) },
  }),

  getApiMedia: user(),
  getApiMap: user(),
  getApiMapTilesByZByXByY: user(),

  getApiWatches: live(),
  postApiWatches: live(),
  patchApiWatchesById: live({ resource: 'watch', send: { body: () => ({ schedule: 'weekly' }) } }),
  deleteApiWatchesById: live({ resource: 'watch' }),
  getApiWatchesByIdEvents: live({ resource: 'watch' }),
  postApiWatchesByIdRun: live({ resource: 'watch' }),

  // Bulk lookups: live accounts only (trial accounts run single lookups).
  postApiBulkPreview: live({ scope: 'bulk' }),
  postApiBulk: live({ scope: 'bulk' }),
  getApiBulk: live({ scope: 'bulk' }),
  getApiBulkById: live({ scope: 'bulk', resource: 'bulk', supervisor: 'through' }),
  getApiBulkByIdEvents: live({ scope: 'bulk', resource: 'bulk', supervisor: 'through' }),
  postApiBulkByIdPause: live({ scope: 'bulk', resource: 'bulk' }),
  postApiBulkByIdResume: live({ scope: 'bulk', resource: 'bulk' }),
  postApiBulkByIdCancel: live({ scope: 'bulk', resource: 'bulk' }),
  getApiBulkByIdRows: live({ scope: 'bulk', resource: 'bulk', supervisor: 'through' }),
  getApiBulkByIdResults: live({ scope: 'bulk', resource: 'bulk', supervisor: 'through' }),

  getApiAdminSettings: admin(),
  patchApiAdminSettings: admin(),
  getApiAdminProviders: admin(),
  getApiAdminLeakSources: admin(),
  getApiAdminUsers: admin(),
  postApiAdminUsers: admin(),
  getApiAdminUsersById: admin({ resource: 'account' }),
  patchApiAdminUsersById: admin({ resource: 'account' }),
  postApiAdminUsersByIdApprove: admin({ resource: 'account' }),
  postApiAdminUsersByIdReject: admin({ resource: 'account' }),
  postApiAdminUsersByIdCredits: admin({ resource: 'account' }),
  getApiAdminAudit: admin(),
  getApiAdminAuditChain: admin(),
  getApiAdminAuditCsv: admin(),
  getApiAdminSiteHealth: admin(),
  // The matrix's app runs without the site check: an admin's run is refused as off.
  postApiAdminSiteHealthRun: admin({ outcomes: { admin: 409 } }),

  // Sampled review: anyone signed in reads their own queue (empty unless they supervise) and their
  // own searches' reviews; a verdict on a search the caller does not review is a 404.
  getApiReviews: user(),
  getApiReviewsMine: user(),
  postApiReviewsByLookupId: user({ send: { body: () => ({ verdict: 'in_order' }) } }),

  // Approval of sensitive searches: anyone signed in reads their own queue (empty unless they
  // supervise) and their own requests; a request the caller neither made nor decides is a 404.
  getApiApprovals: user(),
  getApiApprovalsMine: user({ scope: 'lookups' }),
  getApiApprovalsById: user({ scope: 'lookups' }),
  postApiApprovalsById: user({ send: { body: () => ({ decision: 'approve' }) } }),

  // Units: anyone signed in reads the tree as they may see it; admins build it; a unit's members are
  // read by its unit admins and supervisors (and those of the units above), managed by its unit
  // admins (and those above); anyone else gets 404, as if it did not exist. The unit is the live
  // account's station; the live account is an investigator there.
  getApiUnits: user(),
  postApiUnits: admin({ send: { body: () => ({ name: `Matrix unit ${randomUUID()}`, parent_id: null }) } }),
  putApiUnitsLevels: admin({ send: { body: () => ({ levels: ['State', 'District', 'Station', 'Desk'] }) } }),
  patchApiUnitsById: admin({ resource: 'unit', send: { body: () => ({ name: 'Matrix station' }) } }),
  deleteApiUnitsById: admin({ resource: 'unit', outcomes: { admin: 409 } }),
  getApiUnitsByIdMembers: user({ resource: 'unit', adminSees: true, outcomes: UNIT_READERS }),
  postApiUnitsByIdMembers: user({
    resource: 'unit',
    adminSees: true,
    outcomes: UNIT_MANAGERS,
    send: { body: () => ({ email: 'nobody-matrix@example.test', role: 'investigator' }) },
  }),
  patchApiUnitsByIdMembersByUserId: user({
    resource: 'unit',
    adminSees: true,
    outcomes: UNIT_MANAGERS,
    send: { body: () => ({ role: 'investigator' }) },
  }),
  deleteApiUnitsByIdMembersByUserId: user({ resource: 'unit', adminSees: true, outcomes: UNIT_MANAGERS }),
  // Its credit pool: read as its members are; allowances set as members are managed; topped up by
  // admins only (its readers get 403, anyone else 404).
  getApiUnitsByIdCredits: user({ resource: 'unit', adminSees: true, outcomes: UNIT_READERS }),
  postApiUnitsByIdCredits: user({
    resource: 'unit',
    adminSees: true,
    outcomes: { ...UNIT_MANAGERS, unitAdminSame: 403, unitAdminParent: 403 },
    send: { body: () => ({ amount: 1, reason: 'Matrix top-up' }) },
  }),
  putApiUnitsByIdMembersByUserIdAllowance: user({
    resource: 'unit',
    adminSees: true,
    outcomes: UNIT_MANAGERS,
    send: { body: () => ({ monthly_allowance: 0 }) },
  }),
};

/**
 * The signed-in callers. Beside the accounts, the people of the units: the live account is an
 * investigator of "Matrix station", under "Matrix district"; each unit role is held in the same
 * unit (Same), in the unit above (Parent), or in an unrelated unit (Other). All are live accounts.
 */
const UNIT_PEOPLE = [
  'investigatorSame',
  'supervisorSame',
  'supervisorParent',
  'unitAdminSame',
  'unitAdminParent',
  'supervisorOther',
] as const;
type UnitPerson = (typeof UNIT_PEOPLE)[number];
const SESSIONS = ['trial', 'live', 'other', 'admin', ...UNIT_PEOPLE] as const;
type Session = (typeof SESSIONS)[number];
/** The callers, the live account (the resources' owner) last, so that the others meet its resources intact. */
const ACTORS = [
  'anonymous',
  'trial',
  'other',
  'admin',
  ...UNIT_PEOPLE,
  'keyWithScope',
  'keyWithoutScope',
  'live',
] as const;
type Actor = (typeof ACTORS)[number];

/** Allowed through (neither 401 nor 403, nor a 5xx), or refused with this status. */
type Outcome = 'through' | 401 | 403 | 404 | 409;

/** What `actor` gets from an operation declared `rule`. The API keys belong to the live account. */
function expected(rule: Rule, actor: Actor): Outcome {
  const override = rule.outcomes?.[actor];
  if (override !== undefined && actor !== 'anonymous') return override;
  const isKey = actor === 'keyWithScope' || actor === 'keyWithoutScope';
  if (rule.who === 'public') return rule.keysRefused && isKey ? 403 : 'through';
  if (actor === 'anonymous') return 401;
  if (actor === 'keyWithScope' || actor === 'keyWithoutScope') {
    return rule.scope && actor === 'keyWithScope' ? 'through' : 403;
  }
  if (rule.who === 'admin') return actor === 'admin' ? 'through' : 403;
  if (rule.who === 'live' && actor === 'trial') return 403;
  if (!rule.resource || actor === 'live') return 'through';
  if (actor === 'admin') return rule.adminSees ? 'through' : 404;
  if (actor === 'supervisorSame' || actor === 'supervisorParent') return rule.supervisor ?? 404;
  return 404;
}

interface Operation {
  id: string;
  method: string;
  path: string;
  /** The API-key scope the document lists, if any. */
  scope: string | undefined;
  isPublic: boolean;
}

let t: TestApp;
let operations: Operation[];
const sessions = {} as Record<Session, Record<string, string>>;
/** Per scope, a key of the live account holding only it, and one holding every other scope. */
const keysWith = {} as Record<ApiKeyScope, string>;
const keysWithout = {} as Record<ApiKeyScope, string>;
let keyWithEveryScope: string;
const ids = {} as Record<Resource, string>;
/** A member of the live account's case, for the operation that removes one. */
let memberId: string;
/** A capture of the live account's case (written directly: capturing is off in this app). */
let captureId: string;
let liveUserId: string;
/** A unit none of the callers is in: the live account's case is shared with it (and unshared). */
let spareUnitId: string;
const userIds = {} as Record<UnitPerson, string>;

const inject = (method: string, url: string, headers: Record<string, string>, body?: unknown) =>
  t.app.inject({
    method: method as 'GET',
    url,
    headers: { ...headers, ...(method === 'GET' ? {} : { 'content-type': 'application/json' }) },
    ...(method === 'GET' ? {} : { payload: JSON.stringify(body ?? {}) }),
  });

async function makeKey(scopes: readonly ApiKeyScope[], name: string) {
  const res = await inject('POST', '/api/api-keys', sessions.live, { name, scopes });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { key: string; id: string };
}

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_ENABLED: 'false' } });
  for (const [who, options] of [
    ['trial', { appMode: 'trial', credits: 20 }],
    ['live', { appMode: 'live', credits: 50 }],
    ['other', { appMode: 'live', credits: 20 }],
    ['admin', { appMode: 'live', role: 'admin', credits: 20 }],
    ...UNIT_PEOPLE.map((who) => [who, { appMode: 'live', credits: 5 }] as const),
  ] as const) {
    const deviceId = newDeviceId();
    const account = await createUser(t.db, { ...options, trustedDevice: deviceId });
    const { token } = await signIn(t, account.email, account.password, deviceId);
    sessions[who] = { authorization: `Bearer ${token}`, 'x-device-id': deviceId };
    if ((UNIT_PEOPLE as readonly string[]).includes(who)) userIds[who as UnitPerson] = account.id;
    emails[who] = account.email;
    if (who === 'live') liveUserId = account.id;
  }
  await buildUnits();

  const doc = (await inject('GET', '/api/openapi.json', {})).json() as OpenAPIV3_1.Document;
  operations = Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    (['get', 'put', 'post', 'patch', 'delete'] as const).flatMap((method) => {
      const op = item?.[method];
      if (!op) return [];
      const security = op.security ?? [];
      return [
        {
          id: op.operationId ?? `${method} ${path}`,
          method: method.toUpperCase(),
          path,
          scope: security.flatMap((requirement) => requirement.apiKey ?? [])[0],
          isPublic: security.length === 0,
        },
      ];
    }),
  );

  // Keys: one per scope, one with every scope but that one, one with every scope, one to revoke.
  for (const scope of API_KEY_SCOPES) {
    keysWith[scope] = (await makeKey([scope], `Only ${scope}`)).key;
    keysWithout[scope] = (
      await makeKey(
        API_KEY_SCOPES.filter((s) => s !== scope),
        `All but ${scope}`,
      )
    ).key;
  }
  keyWithEveryScope = (await makeKey(API_KEY_SCOPES, 'Every scope')).key;
  ids.apiKey = (await makeKey(['lookups'], 'Spare')).id;

  // The live account's resources.
  const lookup = await inject('GET', '/api/tel?number=919876543210', sessions.live);
  expect(lookup.statusCode, lookup.body).toBe(200);
  ids.lookup = lookup.json().lookup_id;
  const created = await inject('POST', '/api/cases', sessions.live, { title: 'Matrix case' });
  expect(created.statusCode, created.body).toBe(201);
  ids.case = created.json().id;
  const [capture] = await t.db
    .insert(caseCaptures)
    .values({ caseId: ids.case, requestedBy: liveUserId, url: 'https://example.test/profile' })
    .returning();
  captureId = capture!.id;
  // Its thumbnail, so that the preview route has something to show whoever may see it.
  await t.db.insert(capturePreviews).values({ captureId, body: Buffer.from('synthetic thumbnail') });
  const member = await createUser(t.db, { appMode: 'live' });
  memberId = member.id;
  const added = await inject('POST', `/api/cases/${ids.case}/members`, sessions.live, {
    email: member.email,
  });
  expect(added.statusCode, added.body).toBe(201);
  const bulk = await inject('POST', '/api/bulk', sessions.live, { type: 'tel', values: ['919811100001'] });
  expect(bulk.statusCode, bulk.body).toBe(202);
  ids.bulk = bulk.json().id;
  const watch = await inject('POST', '/api/watches', sessions.live, {
    kind: 'tel',
    query: '919123456780',
    schedule: 'weekly',
  });
  expect(watch.statusCode, watch.body).toBe(201);
  ids.watch = watch.json().id;
  ids.account = (await createUser(t.db, { status: 'pending' })).id;
});
afterAll(() => t.close());

const emails = {} as Record<Session, string>;

/**
 * Matrix state → Matrix district → Matrix station, Other state beside it, and a spare unit. The live
 * account is an investigator of the station; the unit people hold their roles as their names say.
 */
async function buildUnits() {
  const unit = async (name: string, parent_id: string | null) => {
    const res = await inject('POST', '/api/units', sessions.admin, { name, parent_id });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  };
  const state = await unit('Matrix state', null);
  const district = await unit('Matrix district', state);
  const station = await unit('Matrix station', district);
  const other = await unit('Other state', null);
  spareUnitId = await unit('Matrix spare', null);
  ids.unit = station;
  const place = async (unitId: string, email: string, role: string) => {
    const res = await inject('POST', `/api/units/${unitId}/members`, sessions.admin, { email, role });
    expect(res.statusCode, res.body).toBe(201);
  };
  await place(station, emails.live, 'investigator');
  await place(station, emails.investigatorSame, 'investigator');
  await place(station, emails.supervisorSame, 'supervisor');
  await place(district, emails.supervisorParent, 'supervisor');
  await place(station, emails.unitAdminSame, 'unit_admin');
  await place(district, emails.unitAdminParent, 'unit_admin');
  await place(other, emails.supervisorOther, 'supervisor');
}

/** The URL of an operation, its path parameters filled (and its sample query, if it declares one). */
function urlOf(op: Operation): string {
  const rule = rules[op.id]!;
  const query = rule.send?.query ? `?${rule.send.query}` : '';
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    if (name === 'id' && rule.resource) return ids[rule.resource];
    if (name === 'userId' && rule.resource === 'case') return memberId;
    if (name === 'userId' && rule.resource === 'unit') return userIds.investigatorSame;
    if (name === 'unitId') return spareUnitId;
    if (name === 'format') return CASE_EXPORT_FORMATS[0]!;
    if (name === 'captureId') return captureId;
    if (name === 'name') return CAPTURE_ARTEFACT_NAMES[1]!;
    return randomUUID();
  });
  return path + query;
}

function headersOf(op: Operation, actor: Actor): Record<string, string> {
  const scope = rules[op.id]!.scope;
  switch (actor) {
    case 'anonymous':
      return {};
    case 'keyWithScope':
      return { authorization: `Bearer ${scope ? keysWith[scope] : keyWithEveryScope}` };
    case 'keyWithoutScope':
      return { authorization: `Bearer ${scope ? keysWithout[scope] : keyWithEveryScope}` };
    default:
      return sessions[actor];
  }
}

/** The operations in document order, those that delete something last. */
const inOrder = () =>
  [...operations].sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));

describe('authorization matrix', () => {
  it('declares every operation of the document, and the document lists every route', () => {
    const missing = operations
      .filter((op) => !(op.id in rules))
      .map((op) => `${op.id} (${op.method} ${op.path})`);
    expect(missing, 'operations without an authorization declaration').toEqual([]);
    const stale = Object.keys(rules).filter((id) => !operations.some((op) => op.id === id));
    expect(stale, 'declarations for operations the document no longer has').toEqual([]);
    // The development outbox is absent here (SMTP_URL is set); everything else is documented.
    const documented = new Set(operations.map((op) => `${op.method} ${op.path}`));
    const undocumented = routeTableOf(t.app)
      .filter((r) => isApplicationRoute(r.url) && !r.url.startsWith('/dev/'))
      .map((r) => `${r.method} ${r.url.replace(/:([A-Za-z_]+)/g, '{$1}')}`)
      .filter((key) => !documented.has(key));
    expect(undocumented, 'routes missing from the document').toEqual([]);
  });

  it('agrees with the document on which operations are public and which scope a key needs', () => {
    for (const op of operations) {
      const rule = rules[op.id]!;
      expect(op.isPublic, op.id).toBe(rule.who === 'public');
      expect(op.scope, op.id).toBe(rule.scope);
    }
  });

  it('refuses anonymous callers everywhere but the public routes, with a JSON 401', async () => {
    for (const op of operations) {
      if (rules[op.id]!.who === 'public') continue;
      const res = await inject(op.method, urlOf(op), {});
      expect(res.statusCode, op.id).toBe(401);
      expect(res.json().message, op.id).toEqual(expect.any(String));
    }
  });

  // Each caller, the keys included, gets exactly what the operation's declaration says.
  it('lets each role through exactly the routes it may use', async () => {
    const wrong: string[] = [];
    for (const op of inOrder()) {
      const rule = rules[op.id]!;
      for (const actor of ACTORS) {
        // These would revoke the caller's session; see tokens.test.ts and security.test.ts.
        const signsOut = op.id === 'postApiLogout' || op.id === 'postApiSecuritySignOutEverywhere';
        if (signsOut && (SESSIONS as readonly string[]).includes(actor)) continue;
        const want = expected(rule, actor);
        const res = await inject(op.method, urlOf(op), headersOf(op, actor), rule.send?.body?.(ids));
        const got = res.statusCode;
        const label = `${op.id} as ${actor}: ${got} ${res.body.slice(0, 160)}`;
        if (got >= 500) wrong.push(`${label} (a 5xx)`);
        else if (want === 'through') {
          if (got === 401 || got === 403) wrong.push(`${label} (expected through)`);
          // The owner reaches its own resource: the others' 404 is about something that exists.
          const owner = actor === 'live' || actor === 'keyWithScope';
          if (owner && rule.resource && got === 404 && op.method !== 'DELETE') {
            wrong.push(`${label} (own resource)`);
          }
        } else if (got !== want) wrong.push(`${label} (expected ${want})`);
        else if (typeof res.json().message !== 'string') wrong.push(`${label} (no message)`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe("another user's resources", () => {
  it("never shows one user's lookups, history or reports to another", async () => {
    // The live user makes a lookup; the trial user asks for it by id every way there is.
    const lookup = await t.app.inject({
      method: 'GET',
      url: '/api/tel?number=919876543210',
      headers: sessions.live,
    });
    expect(lookup.statusCode).toBe(200);
    const history = await t.app.inject({ method: 'GET', url: '/api/history', headers: sessions.live });
    const id = history.json().data[0].id as string;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);

    const theirs = await t.app.inject({ method: 'GET', url: `/api/history/${id}`, headers: sessions.trial });
    expect(theirs.statusCode).toBe(404);
    const adminView = await t.app.inject({
      method: 'GET',
      url: `/api/history/${id}`,
      headers: sessions.admin,
    });
    expect(adminView.statusCode, 'history is personal, admins read the audit trail instead').toBe(404);
    const mine = await t.app.inject({ method: 'GET', url: `/api/history/${id}`, headers: sessions.live });
    expect(mine.statusCode).toBe(200);
    for (const format of ['csv', 'json']) {
      const url = `/api/history/${id}/export?format=${format}`;
      expect((await t.app.inject({ method: 'GET', url, headers: sessions.trial })).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'GET', url, headers: sessions.admin })).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'GET', url, headers: sessions.live })).statusCode).toBe(200);
    }
    const otherCsv = await t.app.inject({ method: 'GET', url: '/api/history.csv', headers: sessions.trial });
    expect(otherCsv.body).not.toContain(id);
    const otherHistory = await t.app.inject({ method: 'GET', url: '/api/history', headers: sessions.trial });
    expect(otherHistory.json().data.map((row: { id: string }) => row.id)).not.toContain(id);

    // A report built on someone else's lookup id must not carry their data.
    const report = await t.app.inject({
      method: 'POST',
      url: '/api/generate-report',
      headers: { ...sessions.trial, 'content-type': 'application/json' },
      payload: JSON.stringify({ type: 'phone', userInput: '919876543210', results: { lookup_id: id } }),
    });
    expect([400, 403, 404, 422]).toContain(report.statusCode);
  });
});
