import { z } from 'zod';
import { EPOCH_MAX, ID_MAX } from './fields';
import { LIMITS } from './limits';
import { pageNumbers, pageOf } from './paging';

/**
 * The audit log (docs/audit.md): who changed what, when and from where. Every change through the
 * API or the live channel writes one record in the transaction of the change itself; the records
 * cannot be changed or deleted (a database trigger refuses it), except by retention.
 */

/**
 * Every action the log records, one name per operation: `<entity>.<verb>`. The server refuses to
 * start with a write route that names none (docs/audit.md lists them with their routes).
 */
export const AUDIT_ACTIONS = [
  'auth.sign_in',
  'auth.sign_in_failed',
  'auth.sign_out',
  'auth.password_reset',
  'user.create',
  'user.update',
  'user.archive',
  'company.create',
  'company.update',
  'company.delete',
  'department.create',
  'department.update',
  'department.delete',
  'role.create',
  'role.update',
  'role.delete',
  'status.create',
  'status.update',
  'status.delete',
  'task.create',
  'task.update',
  'task.delete',
  'schedule.create',
  'schedule.update',
  'schedule.archive',
  'activity.create',
  'activity.update',
  'activity.delete',
  'activity.premium',
  'activity.regular',
  'license.create',
  'license.update',
  'license.invalidate',
  'license.delete',
  'account.create',
  'account.generate',
  'account.import',
  'account.invalidate',
  'account.delete',
  'account.export',
  'account.bind_machine',
  'workflow.upload',
  'workflow.update',
  'workflow.delete',
  'workflow.download',
  'directory.create',
  'directory.rename',
  'directory.rename_items',
  'directory.delete',
  'directory.delete_items',
  'widget.save',
  'agent.execute',
  'agent.terminate',
  'token.create',
  'token.revoke',
  'webhook.create',
  'webhook.update',
  'webhook.delete',
  'webhook.test',
  'webhook.redeliver',
  'alert_rule.create',
  'alert_rule.update',
  'alert_rule.delete',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const isAuditAction = (value: string): value is AuditAction =>
  (AUDIT_ACTIONS as readonly string[]).includes(value);

/** The kind of thing an action names: the part of the action before its dot. */
export const auditEntityType = (action: AuditAction) => action.slice(0, action.indexOf('.'));

/** Who acted: a person with a session, a person's API token, or an agent by its key's partial form. */
export const AuditActorType = z.enum(['user', 'token', 'agent']);
export type AuditActorType = z.infer<typeof AuditActorType>;

export const AuditActor = z
  .object({
    type: AuditActorType,
    /** The user (for a token: the token's user), or the agent's account; null for a failed sign-in. */
    id: z.number().int().nullable(),
    /** The name at the time: the user's full name ("… (token name)" for a token), the key's partial form. */
    name: z.string(),
  })
  .meta({ id: 'AuditActor' });
export type AuditActor = z.infer<typeof AuditActor>;

/** One field's change. Secrets are never recorded: their values are `"[redacted]"`. */
export const AuditChange = z
  .object({ field: z.string(), before: z.unknown(), after: z.unknown() })
  .meta({ id: 'AuditChange' });
export type AuditChange = z.infer<typeof AuditChange>;

export const AUDIT_REDACTED = '[redacted]';

export const AuditRecord = z
  .object({
    id: z.number().int(),
    /** Epoch milliseconds. */
    at: z.number().int(),
    actor: AuditActor,
    tenantId: z.string().nullable(),
    companyName: z.string().nullable(),
    action: z.string(),
    entityType: z.string(),
    entityId: z.string().nullable(),
    entityName: z.string().nullable(),
    changes: z.array(AuditChange),
    address: z.string().nullable(),
    userAgent: z.string().nullable(),
  })
  .meta({ id: 'AuditRecord' });
export type AuditRecord = z.infer<typeof AuditRecord>;

export const AuditRecordPage = pageOf(AuditRecord).meta({ id: 'AuditRecordPage' });

const invalidInput = 'ERROR_GENERAL_INVALID_INPUT';
const wholeNumber = (min: number, max: number) =>
  z.coerce.number({ error: invalidInput }).int(invalidInput).min(min, invalidInput).max(max, invalidInput);
const emptyIsUnset = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

/**
 * `GET /api/audit`: newest first, paged (10 by default); `from`/`to` epoch milliseconds (both
 * included), `actor` a user id, `action` one action name, `entityType` and `entityId` one entity,
 * `search` words in the actor's, the entity's and the company's names and the action.
 * `format=csv` answers every matching record as CSV.
 */
export const AuditQuery = z
  .object({
    ...pageNumbers,
    search: z.string().trim().max(LIMITS.nameMax, invalidInput).optional(),
    from: emptyIsUnset(wholeNumber(0, EPOCH_MAX)),
    to: emptyIsUnset(wholeNumber(0, EPOCH_MAX)),
    actor: emptyIsUnset(wholeNumber(1, ID_MAX)),
    action: z
      .string()
      .refine(isAuditAction, 'ERROR_AUDIT_ACTION_INVALID')
      .optional()
      .transform((value) => value as AuditAction | undefined),
    entityType: z.string().trim().max(64, invalidInput).optional(),
    entityId: z.string().trim().max(LIMITS.nameMax, invalidInput).optional(),
    format: z.enum(['json', 'csv']).default('json'),
  })
  .refine((query) => query.from === undefined || query.to === undefined || query.from <= query.to, {
    message: 'ERROR_REPORT_RANGE_INVALID',
    path: ['to'],
  });
export type AuditQuery = z.infer<typeof AuditQuery>;

export const AUDIT_PATHS = { list: '/audit', one: '/audit/:id' } as const;

/** The columns of the CSV export, in order; `at` in ISO 8601 UTC, changes as JSON. */
export const AUDIT_CSV_COLUMNS = [
  'id',
  'at',
  'actorType',
  'actorId',
  'actorName',
  'companyName',
  'action',
  'entityType',
  'entityId',
  'entityName',
  'changes',
  'address',
  'userAgent',
] as const;
