import { AUDIT_ACTIONS, AUDIT_REDACTED, type AuditAction, auditEntityType } from '@opsdeck/contract/audit';
import type { TFunction } from 'i18next';
import { DATE_FORMATS, formatEpoch } from '../../lib/dates';

/** The audit log's times, to the second, as the log pages show theirs (spec section 9). */
export const formatAuditTime = (epoch: number) => formatEpoch(epoch, DATE_FORMATS.log);

/** The kinds of entity the log names, in the order of the contract's actions. */
export const AUDIT_ENTITY_TYPES: readonly string[] = [...new Set(AUDIT_ACTIONS.map(auditEntityType))];

/** 'user.update' reads 'User changed'; an action the console does not know yet reads as it is. */
export function actionLabel(t: TFunction, action: string): string {
  return t(`audit.actions.${action}`, { defaultValue: action });
}

/** 'license' reads 'License'; an unknown type reads as it is. */
export function entityTypeLabel(t: TFunction, entityType: string): string {
  return t(`audit.entities.${entityType}`, { defaultValue: entityType });
}

export interface SelectGroup {
  group: string;
  items: { value: string; label: string }[];
}

/** The action select's choices, grouped by entity; only one type's actions when a type is chosen. */
export function actionOptions(t: TFunction, entityType: string | null): SelectGroup[] {
  const groups = new Map<string, SelectGroup>();
  for (const action of AUDIT_ACTIONS) {
    const type = auditEntityType(action);
    if (entityType && type !== entityType) continue;
    const group = groups.get(type) ?? { group: entityTypeLabel(t, type), items: [] };
    group.items.push({ value: action, label: actionLabel(t, action) });
    groups.set(type, group);
  }
  return [...groups.values()];
}

/** Whether an action belongs to an entity type (a chosen type drops an action of another). */
export const actionOfType = (action: string, entityType: string) =>
  (AUDIT_ACTIONS as readonly string[]).includes(action) && auditEntityType(action as AuditAction) === entityType;

/** How one side of a change reads. */
export type ChangeValue = { kind: 'none' } | { kind: 'hidden' } | { kind: 'empty' } | { kind: 'text'; text: string };

function scalarText(t: TFunction, value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'boolean') return t(value ? 'audit.details.yes' : 'audit.details.no');
  if (typeof value === 'string') return value === AUDIT_REDACTED ? t('audit.details.hidden') : value;
  if (typeof value === 'number') return String(value);
  return JSON.stringify(value);
}

/**
 * One side of a change as the before/after table shows it: null (nothing there) is an em dash, a
 * secret is 'hidden', an empty text or list is 'empty', a list is its items joined by commas,
 * yes/no for a flag, and anything else its JSON.
 */
export function changeValue(t: TFunction, value: unknown): ChangeValue {
  if (value === null || value === undefined) return { kind: 'none' };
  if (value === AUDIT_REDACTED) return { kind: 'hidden' };
  if (value === '' || (Array.isArray(value) && value.length === 0)) return { kind: 'empty' };
  if (Array.isArray(value)) return { kind: 'text', text: value.map((item) => scalarText(t, item)).join(', ') };
  return { kind: 'text', text: scalarText(t, value) };
}

/** 'firstName' reads 'First name', 'tenant_id' 'Tenant id': the record's field names, made readable. */
export function fieldLabel(t: TFunction, field: string): string {
  const words = field
    .replace(/[_.-]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .trim()
    .toLowerCase();
  const readable = words.charAt(0).toUpperCase() + words.slice(1);
  return t(`audit.fields.${field}`, { defaultValue: readable });
}
