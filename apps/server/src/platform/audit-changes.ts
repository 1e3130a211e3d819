import { AUDIT_REDACTED, type AuditChange } from '@opsdeck/contract/audit';

/**
 * What an audit record says changed, and the one rule that keeps secrets out of it (docs/audit.md,
 * "Secrets"). Every value the log stores passes through `redact`: a field whose name says it holds
 * a secret is stored as "[redacted]", at any depth, whatever its value.
 */

/**
 * Field names that hold a secret: passwords and their confirmations, session and API tokens,
 * reset keys, licence keys in full (`key`; the partial form `partialKey` is what people see),
 * digests, signatures, secrets, and the contents of uploaded or signed files.
 */
const SECRET_FIELD =
  /^(key|token|text|bytes)$|password|secret|token(Hash)?$|^(.*[a-z])?(Key|Hash|Signature)$|credential|registration|licenseFile|fileContent|contents?$/i;
/** Names that look like secrets above but are not: the partial form of a key, a type's or a tab's key. */
const NOT_SECRET = /^(partialKey|licenseTypeKey|roleKey|accountTypeKey|sortKey)$/;

export const isSecretField = (field: string) => SECRET_FIELD.test(field) && !NOT_SECRET.test(field);

/** A value with every secret field redacted, at any depth; functions and binary data are dropped. */
export function redact(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value !== 'object') return typeof value === 'function' ? null : value;
  if (value instanceof Uint8Array || value instanceof ArrayBuffer) return AUDIT_REDACTED;
  if (Array.isArray(value)) return value.map(redact);
  const out: Record<string, unknown> = {};
  for (const [field, inner] of Object.entries(value)) {
    out[field] = isSecretField(field) ? AUDIT_REDACTED : redact(inner);
  }
  return out;
}

/**
 * Fields that say nothing about the row itself: what the caller may do with it (computed per
 * caller), and counts derived from other rows.
 */
const NOT_RECORDED = new Set(['editable', 'deletable', 'deleteBlocked', 'changeable']);

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

const isRow = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The fields that differ between two states of a row (either may be absent: a creation has no
 * before, a deletion no after; an update compares the fields both have), top-level fields only,
 * nested values compared whole. Secrets are
 * redacted; a secret field that changed is still listed (a password was set), its values hidden.
 */
export function diffChanges(before: unknown, after: unknown): AuditChange[] {
  const was = isRow(before) ? before : {};
  const now = isRow(after) ? after : {};
  const changes: AuditChange[] = [];
  // An update compares the fields both states have: an answer that carries fewer or more fields
  // than the row read before it (a create's answer, a list's row) changes none by that alone.
  const fields =
    isRow(before) && isRow(after)
      ? Object.keys(now).filter((field) => field in was)
      : [...Object.keys(was), ...Object.keys(now)];
  for (const field of fields) {
    if (NOT_RECORDED.has(field)) continue;
    const a = was[field] ?? null;
    const b = now[field] ?? null;
    if (!same(a, b)) changes.push(safeChange({ field, before: a, after: b }));
  }
  return changes;
}

/** A change as the log may keep it: a secret field's values hidden (null stays null), others redacted within. */
export function safeChange(change: AuditChange): AuditChange {
  const { field, before, after } = change;
  if (!isSecretField(field)) return { field, before: redact(before), after: redact(after) };
  const hidden = (value: unknown) => (value === null || value === undefined ? null : AUDIT_REDACTED);
  return { field, before: hidden(before), after: hidden(after) };
}

/** The fields a row is called by, in order of preference. */
const NAME_FIELDS = [
  'completeName',
  'name',
  'fileName',
  'workflowName',
  'partialKey',
  'label',
  'path',
  'emailAddress',
  'url',
];

/** What people call a row: its name, or its file's, or its key's partial form. */
export function nameOf(row: unknown): string | null {
  if (!isRow(row)) return null;
  for (const field of NAME_FIELDS) {
    const value = row[field];
    if (typeof value === 'string' && value !== '') return value;
  }
  const first = row.firstName;
  const last = row.lastName;
  return typeof first === 'string' && typeof last === 'string' ? `${first} ${last}` : null;
}
