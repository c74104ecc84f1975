import {
  addUnitMemberBody,
  changeUnitMemberBody,
  createUnitBody,
  memberAllowanceBody,
  unitCreditsBody,
  unitLevelsBody,
  unitMemberResponse,
  unitMembersResponse,
  unitPoolResponse,
  unitResponse,
  unitsResponse,
  updateUnitBody,
} from '@footprint/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Database } from '../../db/client.ts';
import { parseInput } from '../../errors.ts';
import type { Guards } from '../../http/auth.ts';
import { clientOf } from '../../http/context.ts';
import type { ContractTypeProvider } from '../../http/contracts.ts';
import { addUnitMember, changeUnitMember, readUnitMembers, removeUnitMember } from './members.ts';
import { changeUnitPool, readUnitPool, setMemberAllowance } from './pool.ts';
import { createUnit, deleteUnit, readUnits, setLevels, updateUnit } from './tree.ts';
import type { Who } from './who.ts';

const tags = ['Units'];
const unitId = z.object({ id: z.string().describe('The unit id.') });
const memberId = unitId.extend({ userId: z.string().describe("The member's user id.") });

/** What every route of unitRoutes shares: the caller as the units module takes them. */
function unitRoutesContext(app: FastifyInstance, deps: { db: Database; guards: Guards }) {
  const api = app.withTypeProvider<ContractTypeProvider>();
  const who = (request: FastifyRequest): Who => ({
    actor: request.user!,
    acting: { actor: { id: request.user!.id, email: request.user!.email }, client: clientOf(request) },
  });
  return { db: deps.db, preHandler: deps.guards.authenticate, api, who };
}

function treeRoutes(context: ReturnType<typeof unitRoutesContext>) {
  const { db, preHandler, api, who } = context;
  api.get(
    '/api/units',
    {
      preHandler,
      schema: {
        summary: 'The tree of units as the caller may see it, and their own memberships',
        tags,
        response: { 200: unitsResponse },
      },
    },
    async (request) => readUnits(db, who(request)),
  );

  api.post(
    '/api/units',
    {
      preHandler,
      schema: {
        summary: 'Add a unit (admins)',
        refusals: { 409: 'A sibling has this name, or the tree has no level below the parent.' },
        tags,
        body: createUnitBody,
        response: { 201: unitResponse },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await createUnit(db, who(request), parseInput(createUnitBody, request.body))),
  );

  api.put(
    '/api/units/levels',
    {
      preHandler,
      schema: {
        summary: 'Name the levels of the tree, top first (admins)',
        refusals: { 409: 'The tree is deeper than the levels named.' },
        tags,
        body: unitLevelsBody,
        response: { 200: unitsResponse },
      },
    },
    async (request) => setLevels(db, who(request), parseInput(unitLevelsBody, request.body).levels),
  );

  api.patch<{ Params: { id: string } }>(
    '/api/units/:id',
    {
      preHandler,
      schema: {
        summary: 'Rename a unit or move it under another (admins)',
        refusals: {
          409: 'A sibling has this name, the move is under the unit itself, or the tree has no level for it.',
        },
        tags,
        params: unitId,
        body: updateUnitBody,
        response: { 200: unitResponse },
      },
    },
    async (request) =>
      updateUnit(db, who(request), request.params.id, parseInput(updateUnitBody, request.body)),
  );

  api.delete<{ Params: { id: string } }>(
    '/api/units/:id',
    {
      preHandler,
      schema: {
        summary: 'Delete an empty unit (admins)',
        refusals: { 409: 'The unit has members or units below it, or it is the default unit.' },
        tags,
        params: unitId,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await deleteUnit(db, who(request), request.params.id);
      return reply.status(204).send();
    },
  );
}

function memberRoutes(context: ReturnType<typeof unitRoutesContext>) {
  const { db, preHandler, api, who } = context;
  api.get<{ Params: { id: string } }>(
    '/api/units/:id/members',
    {
      preHandler,
      schema: {
        summary: "A unit's members (admins, and its unit admins and supervisors or those above)",
        tags,
        params: unitId,
        response: { 200: unitMembersResponse },
      },
    },
    async (request) => readUnitMembers(db, who(request), request.params.id),
  );

  api.post<{ Params: { id: string } }>(
    '/api/units/:id/members',
    {
      preHandler,
      schema: {
        summary: 'Add a member by e-mail with a role, or change their role (admins, unit admins)',
        tags,
        params: unitId,
        body: addUnitMemberBody,
        response: { 201: unitMemberResponse },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await addUnitMember(
            db,
            who(request),
            request.params.id,
            parseInput(addUnitMemberBody, request.body),
          ),
        ),
  );

  api.patch<{ Params: { id: string; userId: string } }>(
    '/api/units/:id/members/:userId',
    {
      preHandler,
      schema: {
        summary: "Change a member's role (admins, unit admins)",
        tags,
        params: memberId,
        body: changeUnitMemberBody,
        response: { 200: unitMemberResponse },
      },
    },
    async (request) =>
      changeUnitMember(
        db,
        who(request),
        request.params.id,
        request.params.userId,
        parseInput(changeUnitMemberBody, request.body).role,
      ),
  );

  api.delete<{ Params: { id: string; userId: string } }>(
    '/api/units/:id/members/:userId',
    {
      preHandler,
      schema: {
        summary: 'Take a member off a unit; everyone keeps at least one unit (admins, unit admins)',
        refusals: { 409: "It is the member's only unit." },
        tags,
        params: memberId,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await removeUnitMember(db, who(request), request.params.id, request.params.userId);
      return reply.status(204).send();
    },
  );
}

const poolQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1).describe('Page, from 1.'),
  per_page: z.coerce.number().int().min(1).max(100).default(20),
  user: z.string().optional().describe("One member's rows only (their user id)."),
});

function poolRoutes(context: ReturnType<typeof unitRoutesContext>) {
  const { db, preHandler, api, who } = context;
  api.get<{ Params: { id: string } }>(
    '/api/units/:id/credits',
    {
      preHandler,
      schema: {
        summary:
          "A unit's credit pool: balance, members' allowances and its statement (admins, unit admins, supervisors)",
        tags,
        params: unitId,
        querystring: poolQuery,
        response: { 200: unitPoolResponse },
      },
    },
    async (request) =>
      readUnitPool(db, who(request), request.params.id, parseInput(poolQuery, request.query)),
  );

  api.post<{ Params: { id: string } }>(
    '/api/units/:id/credits',
    {
      preHandler,
      schema: {
        summary: "Top up (amount > 0) or deduct (amount < 0) a unit's credit pool (admins)",
        refusals: { 409: 'The deduction would take the pool below zero.' },
        tags,
        params: unitId,
        body: unitCreditsBody,
        response: { 200: unitPoolResponse },
      },
    },
    async (request) =>
      changeUnitPool(db, who(request), request.params.id, parseInput(unitCreditsBody, request.body)),
  );

  api.put<{ Params: { id: string; userId: string } }>(
    '/api/units/:id/members/:userId/allowance',
    {
      preHandler,
      schema: {
        summary:
          "Set what a member may draw from the unit's pool a month (admins, unit admins; not one's own)",
        tags,
        params: memberId,
        body: memberAllowanceBody,
        response: { 200: unitMemberResponse },
      },
    },
    async (request) =>
      setMemberAllowance(
        db,
        who(request),
        request.params.id,
        request.params.userId,
        parseInput(memberAllowanceBody, request.body).monthly_allowance,
      ),
  );
}

/**
 * /api/units: the tree of units and who belongs to each (domain units.ts). Anyone signed in reads the
 * tree as they may see it; admins build it; admins and unit admins manage members. What each caller
 * may do is the access policy's decision (tree.ts, members.ts), not the route's.
 */
export function unitRoutes(app: FastifyInstance, deps: { db: Database; guards: Guards }) {
  const context = unitRoutesContext(app, deps);
  treeRoutes(context);
  memberRoutes(context);
  poolRoutes(context);
}
