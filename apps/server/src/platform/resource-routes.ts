import type { AuditAction } from '@opsdeck/contract/audit';
import { Ok } from '@opsdeck/contract/auth';
import type { Authority } from '@opsdeck/contract/authorities';
import { ListFormatQuery } from '@opsdeck/contract/paging';
import type { FastifyInstance } from 'fastify';
import type { ZodType } from 'zod';
import { access, type RequestAuth, requireAuth } from './access';
import { type AuditDeclaration, audit } from './audit';
import { type CsvTable, csvAnswer, csvDescription, sendTableCsv } from './csv-export';

/** The entities whose create, update and delete are all audit actions. */
type AuditEntity = {
  [A in AuditAction]: A extends `${infer E}.create`
    ? `${E}.update` extends AuditAction
      ? `${E}.delete` extends AuditAction
        ? E
        : never
      : never
    : never;
}[AuditAction];

/** One operation's declaration: who may call it, and what the API docs say of it. */
export interface Operation {
  /** The caller needs at least one of these. */
  anyOf: readonly Authority[];
  summary: string;
  description?: string;
}

/** What an area's service offers for its list, one row, create, update and delete calls. */
export interface ResourceService<Row, Create, Update = Create> {
  list?: (auth: RequestAuth) => Promise<Row[]>;
  get?: (auth: RequestAuth, id: number) => Promise<Row>;
  create?: (auth: RequestAuth, body: Create) => Promise<Row>;
  update?: (auth: RequestAuth, id: number, body: Update) => Promise<Row>;
  remove?: (auth: RequestAuth, id: number) => Promise<void>;
}

export interface ResourceRoutes<Row, Create, Update = Create> {
  /** The collection's path under /api, such as `/task`; one row is `${path}/:id`. */
  path: `/${string}`;
  tags: string[];
  /** `{ id }`, with the area's error key for a bad id. */
  params: ZodType<{ id: number }>;
  row: ZodType<Row>;
  /** The create body, and the update body too unless `updateBody` differs. */
  body: ZodType<Create>;
  updateBody?: ZodType<Update>;
  service: ResourceService<Row, Create, Update>;
  /**
   * What the audit log calls a row (docs/audit.md): create, update and remove are recorded as
   * `<entity>.create`, `.update` and `.delete`, with the row read before and after by `get`.
   */
  entity: AuditEntity;
  /** The operations the area offers; one left out is not routed. */
  list?: Operation;
  /**
   * The list as a CSV download too (`format=csv`, docs/csv-export.md): the file's name and the
   * table's columns. The whole list the call answers, in its order, behind the list's authorities.
   */
  csv?: CsvTable<Row>;
  get?: Operation;
  create?: Operation;
  update?: Operation;
  remove?: Operation;
}

/**
 * The five calls of a resource (spec section 3's `GET /x`, `GET /x/{id}`, `POST /x`, `PUT /x/{id}`,
 * `DELETE /x/{id}`), declared once: each with its authorities, its schemas and its docs, answering
 * 201 with the row on create and `{ ok: true }` on delete. An area's other calls stay beside it in
 * its own routes file.
 */
export function resourceRoutes<Row, Create, Update = Create>(
  app: FastifyInstance,
  resource: ResourceRoutes<Row, Create, Update>,
): void {
  const { path, tags, params, row, body, service } = resource;
  const updateBody = resource.updateBody ?? body;
  const one = `${path}/:id`;
  const docs = (operation: Operation) => ({
    tags,
    summary: operation.summary,
    ...(operation.description ? { description: operation.description } : {}),
  });
  const config = (operation: Operation, recorded?: AuditDeclaration) => ({
    access: access.anyOf(...operation.anyOf),
    ...(recorded ? { audit: recorded } : {}),
  });
  const idOf = (request: { params: unknown }) => (request.params as { id: number }).id;
  // The row as `get` answers it, read before and after an update or a delete for the record's changes.
  const recorded = (verb: 'create' | 'update' | 'delete') => {
    const action = `${resource.entity}.${verb}` as AuditAction;
    return verb === 'create' || !service.get ? audit.action(action) : audit.of(action, service.get);
  };

  if (resource.list && service.list) {
    const list = service.list;
    const csv = resource.csv;
    if (csv) {
      const operation = { ...resource.list, description: csvDescription(resource.list.description) };
      app.get(
        path,
        {
          config: config(operation),
          schema: { ...docs(operation), querystring: ListFormatQuery, response: { 200: csvAnswer(row.array()) } },
        },
        async (request, reply) => {
          const rows = await list(requireAuth(request));
          if ((request.query as ListFormatQuery).format === 'csv') return sendTableCsv(reply, csv, rows);
          return rows;
        },
      );
    } else {
      app.get(
        path,
        { config: config(resource.list), schema: { ...docs(resource.list), response: { 200: row.array() } } },
        async (request) => list(requireAuth(request)),
      );
    }
  }
  if (resource.get && service.get) {
    const get = service.get;
    app.get(
      one,
      { config: config(resource.get), schema: { ...docs(resource.get), params, response: { 200: row } } },
      async (request) => get(requireAuth(request), idOf(request)),
    );
  }
  if (resource.create && service.create) {
    const create = service.create;
    app.post(
      path,
      {
        config: config(resource.create, recorded('create')),
        schema: { ...docs(resource.create), body, response: { 201: row } },
      },
      async (request, reply) => {
        reply.status(201);
        return create(requireAuth(request), request.body as Create);
      },
    );
  }
  if (resource.update && service.update) {
    const update = service.update;
    app.put(
      one,
      {
        config: config(resource.update, recorded('update')),
        schema: { ...docs(resource.update), params, body: updateBody, response: { 200: row } },
      },
      async (request) => update(requireAuth(request), idOf(request), request.body as Update),
    );
  }
  if (resource.remove && service.remove) {
    const remove = service.remove;
    app.delete(
      one,
      {
        config: config(resource.remove, recorded('delete')),
        schema: { ...docs(resource.remove), params, response: { 200: Ok } },
      },
      async (request) => {
        await remove(requireAuth(request), idOf(request));
        return { ok: true as const };
      },
    );
  }
}
