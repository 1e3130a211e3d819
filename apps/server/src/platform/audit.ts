import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage } from 'node:http';
import { type AuditAction, type AuditChange, auditEntityType } from '@opsdeck/contract/audit';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import type { Tx } from '../db/client';
import { header, type RequestAuth, requireAuth } from './access';
import { diffChanges, nameOf, safeChange } from './audit-changes';
import { AppError } from './errors';
import type { UnitOfWork } from './unit-of-work';

/**
 * The audit log's part in every route (docs/audit.md). Each write route declares its action where
 * it declares its access (`config: { access, audit: audit.action('role.update', { load }) }`), or
 * says why it records nothing (`audit.none('a search: reads only')`); the server refuses to start
 * with a write route that declares neither, as it does for a route without access rules.
 *
 * An audited route's handler runs in one transaction (platform/unit-of-work.ts) that ends with its
 * record: the row the route names is read before and after the handler (`load`), and the fields
 * that differ are the record's changes. A service that knows better says so (`currentAudit()`).
 */

/** Who acted, as the record keeps it. `name` null: the user's name is read when the record is written. */
export type AuditActorInput = {
  type: 'user' | 'token' | 'agent';
  id: number | null;
  /** A token's id and name: the record names the token after its user ("Maria Santos (token ci)"). */
  tokenId?: number | null;
  tokenName?: string | null;
  name?: string | null;
};

/** One record, as the platform hands it to the writer. */
export type AuditEntry = {
  at: number;
  action: AuditAction;
  entityType: string;
  entityId: string | null;
  entityName: string | null;
  tenantId: string | null;
  companyName?: string | null;
  actor: AuditActorInput;
  changes: AuditChange[];
  address: string | null;
  userAgent: string | null;
};

/** Writes records in the caller's transaction (modules/audit/queries.ts). */
export type AuditWriter = (tx: Tx, entries: readonly AuditEntry[]) => Promise<void>;

type Load = (request: FastifyRequest) => Promise<unknown>;

export type AuditDeclaration =
  | { readonly kind: 'none'; readonly reason: string }
  | {
      readonly kind: 'action';
      readonly action: AuditAction;
      /** Reads the row the route changes (its answer as a GET would give it), before and after. */
      readonly load?: Load;
      /** The action recorded, in a transaction of its own, when the route fails (a failed sign-in). */
      readonly failure?: { action: AuditAction; statuses: readonly number[] };
    };

export const audit = {
  action: (
    action: AuditAction,
    options: { load?: Load; failure?: { action: AuditAction; statuses: readonly number[] } } = {},
  ): AuditDeclaration => ({ kind: 'action', action, ...options }),
  /** A `/{id}` route's action, its row read with the caller's scope by `get` before and after. */
  of: (action: AuditAction, get: (auth: RequestAuth, id: number) => Promise<unknown>): AuditDeclaration => ({
    kind: 'action',
    action,
    load: (request) => get(requireAuth(request), (request.params as { id: number }).id),
  }),
  /** A write route that changes nothing worth a record, and why (a search sent as a POST). */
  none: (reason: string): AuditDeclaration => ({ kind: 'none', reason }),
};

declare module 'fastify' {
  interface FastifyContextConfig {
    audit?: AuditDeclaration;
  }
}

/**
 * What a service adds to the record of the request it serves: what it knows better than a
 * before-and-after read (the entity, the changes, the tenant), the actor of a public route (who
 * signed in), or more records (each key a licence's deletion took).
 */
export type AuditNote = {
  entityId?: string | number | null;
  entityName?: string | null;
  tenantId?: string | null;
  companyName?: string | null;
  before?: unknown;
  after?: unknown;
  changes?: AuditChange[];
};

type Trail = {
  note: AuditNote;
  actor?: AuditActorInput;
  extra: Omit<AuditEntry, 'at' | 'actor' | 'address' | 'userAgent'>[];
};

const trails = new AsyncLocalStorage<Trail>();

/** The record being made for the current request, for its services to add to; undefined outside one. */
export function currentAudit() {
  const trail = trails.getStore();
  if (!trail) return undefined;
  return {
    describe: (note: AuditNote) => Object.assign(trail.note, note),
    actAs: (actor: AuditActorInput) => {
      trail.actor = actor;
    },
    add: (entry: { action: AuditAction } & AuditNote) => {
      trail.extra.push({
        action: entry.action,
        entityType: auditEntityType(entry.action),
        entityId: entry.entityId === undefined || entry.entityId === null ? null : String(entry.entityId),
        entityName: entry.entityName ?? nameOf(entry.after ?? entry.before),
        tenantId: entry.tenantId ?? null,
        companyName: entry.companyName ?? null,
        changes: (entry.changes ?? diffChanges(entry.before, entry.after)).map(safeChange),
      });
    },
  };
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const methodsOf = (method: string | string[]) => (Array.isArray(method) ? method : [method]);

/** The actor of a request made with a session or an API token. */
export function actorOf(auth: RequestAuth): AuditActorInput {
  return auth.token
    ? { type: 'token', id: auth.userId, tokenId: auth.token.id, tokenName: auth.token.name }
    : { type: 'user', id: auth.userId };
}

/** Where a request came from: the client address (as TRUST_PROXY says) and its user agent. */
export function originOf(request: FastifyRequest) {
  return { address: request.ip ?? null, userAgent: header(request, 'user-agent')?.slice(0, 512) ?? null };
}

/** A row a route answered: a plain object, not `{ ok: true }`, a list, a file or the reply itself. */
/**
 * Where a live-channel connection came from: the socket's address (a proxy in front of the server
 * is not asked: a WebSocket's upgrade request does not go through Fastify's TRUST_PROXY handling)
 * and its user agent.
 */
export function originOfSocket(request: IncomingMessage) {
  const agent = request.headers['user-agent'];
  return { address: request.socket.remoteAddress ?? null, userAgent: agent ? agent.slice(0, 512) : null };
}

const isRow = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' &&
  value !== null &&
  Object.getPrototypeOf(value) === Object.prototype &&
  !('ok' in value && value.ok === true);

/** The first of `values` that is a string or a number, as text. */
function firstId(...values: unknown[]): string | null {
  for (const value of values) {
    if (typeof value === 'number' || (typeof value === 'string' && value !== '')) return String(value);
  }
  return null;
}

/** A field of a row, or of a request's params, query or body (which may have no prototype). */
const field = (row: unknown, name: string) =>
  typeof row === 'object' && row !== null && !Array.isArray(row) ? (row as Record<string, unknown>)[name] : undefined;

/** Reads the row, or undefined where it is not there (yet, or any more). */
async function loadQuietly(load: Load, request: FastifyRequest): Promise<unknown> {
  try {
    return await load(request);
  } catch (error) {
    if (error instanceof AppError && error.statusCode === 404) return undefined;
    throw error;
  }
}

export function registerAudit(
  app: FastifyInstance,
  options: {
    unit: UnitOfWork;
    write: AuditWriter;
    /** False: declarations are still required, but nothing is recorded (a benchmark's baseline). */
    record?: boolean;
  },
) {
  const { unit, write, record = true } = options;

  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api') || route.config?.skipAppKey) return;
    const declaration = route.config?.audit;
    if (!declaration) {
      if (methodsOf(route.method).some((method) => WRITES.has(method))) {
        throw new Error(
          `${route.method} ${route.url} declares no audit action: every write route must say what it records (docs/audit.md)`,
        );
      }
      return;
    }
    if (declaration.kind === 'action' && record) route.handler = auditedHandler(route.handler, declaration);
  });

  function auditedHandler(
    handler: RouteHandlerMethod,
    declaration: Extract<AuditDeclaration, { kind: 'action' }>,
  ): RouteHandlerMethod {
    return async function audited(this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
      try {
        return await unit.run(async (tx) => {
          const trail: Trail = { note: {}, extra: [] };
          return trails.run(trail, async () => {
            const before = declaration.load ? await loadQuietly(declaration.load, request) : undefined;
            const answer = await handler.call(this, request, reply);
            // The row the handler answered is the row after; read again only when it answered none.
            const after = declaration.load && !isRow(answer) ? await loadQuietly(declaration.load, request) : undefined;
            await write(tx, entriesOf(request, declaration.action, trail, before, after ?? answer));
            return answer;
          });
        });
      } catch (error) {
        const failure = declaration.failure;
        if (failure && error instanceof AppError && failure.statuses.includes(error.statusCode)) {
          await recordFailure(request, failure.action);
        }
        throw error;
      }
    };
  }

  /** A refused attempt (a wrong password): its own small transaction, since the request's rolled back. */
  async function recordFailure(request: FastifyRequest, action: AuditAction) {
    const tried = field(request.body, 'username') ?? field(request.query, 'username');
    const name = typeof tried === 'string' ? tried.trim().toLowerCase().slice(0, 255) : null;
    await unit.run((tx) =>
      write(tx, [
        {
          at: Date.now(),
          action,
          entityType: auditEntityType(action),
          entityId: null,
          entityName: name,
          tenantId: null,
          actor: { type: 'user', id: null, name: name ?? 'unknown' },
          changes: [],
          ...originOf(request),
        },
      ]),
    );
  }

  function entriesOf(
    request: FastifyRequest,
    action: AuditAction,
    trail: Trail,
    before: unknown,
    after: unknown,
  ): AuditEntry[] {
    const { note } = trail;
    const auth = request.auth;
    const actor = trail.actor ?? (auth ? actorOf(auth) : undefined);
    if (!actor) throw new Error(`${action}: no actor (a public route must name who acted)`);
    const was = note.before ?? before;
    const now = note.after ?? (isRow(after) ? after : undefined);
    // A bulk call (schedules) answers its rows: the record lists their ids.
    const bulk = Array.isArray(after) ? after.map((row) => field(row, 'id')).filter((id) => id !== undefined) : null;
    const tenantId =
      note.tenantId !== undefined
        ? note.tenantId
        : ((field(now, 'tenantId') ?? field(was, 'tenantId') ?? auth?.tenantId ?? null) as string | null);
    const origin = originOf(request);
    const at = Date.now();
    const entityType = auditEntityType(action);
    const main: AuditEntry = {
      at,
      action,
      entityType,
      entityId: firstId(
        note.entityId,
        field(request.params, 'id'),
        field(request.params, `${entityType}Id`),
        field(now, 'id'),
        field(was, 'id'),
        field(request.body, `${entityType}Id`),
      ),
      entityName: note.entityName ?? nameOf(now) ?? nameOf(was),
      tenantId,
      companyName: note.companyName ?? null,
      actor,
      changes: (note.changes ?? (bulk ? [{ field: 'ids', before: null, after: bulk }] : diffChanges(was, now))).map(
        safeChange,
      ),
      ...origin,
    };
    return [main, ...trail.extra.map((extra) => ({ ...extra, at, actor, ...origin }))];
  }
}
