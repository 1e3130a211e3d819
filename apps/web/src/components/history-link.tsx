import { ActionIcon, Menu, Tooltip } from '@mantine/core';
import { IconHistory } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { holds, type Viewer } from '../lib/authorities';
import { PATHS } from '../lib/paths';
import { useViewer } from '../lib/profile-context';

/** The entities whose pages offer 'History': the audit log's `entityType` of each. */
export type HistoryEntityType = 'user' | 'role' | 'license' | 'account' | 'workflow' | 'webhook';

/** One entity's history: the audit page filtered to it. */
export interface HistoryTarget {
  entityType: HistoryEntityType;
  entityId: number | string;
  /** The entity's name, for the link's accessible name ('History of Ada Lovelace'). */
  name: string;
}

/** The audit page's query keys for one entity (features/audit reads the same keys). */
export const HISTORY_KEYS = { entityType: 'entityType', entityId: 'entityId' } as const;

/** /dashboard/management/audit?entityType=…&entityId=…: the audit page showing one entity's records. */
export function historyPath(entityType: HistoryEntityType, entityId: number | string): string {
  const query = new URLSearchParams({
    [HISTORY_KEYS.entityType]: entityType,
    [HISTORY_KEYS.entityId]: String(entityId),
  });
  return `${PATHS.audit.build()}?${query}`;
}

/** 'History' is offered only to those who may open the audit page. */
export const canViewHistory = (viewer: Viewer) => holds(viewer, 'VIEW_AUDIT_LOG');

/**
 * A row's 'History' icon, beside its edit and delete icons: a link to the audit page filtered to
 * the row's entity. Renders nothing for a viewer without VIEW_AUDIT_LOG.
 */
export function HistoryLink({ entityType, entityId, name }: HistoryTarget) {
  const { t } = useTranslation();
  const viewer = useViewer();
  if (!canViewHistory(viewer)) return null;
  return (
    <Tooltip label={t('audit.history.label')}>
      <ActionIcon
        component={Link}
        to={historyPath(entityType, entityId)}
        variant="subtle"
        color="gray"
        aria-label={t('audit.history.named', { name })}
      >
        <IconHistory size={18} aria-hidden="true" />
      </ActionIcon>
    </Tooltip>
  );
}

/** 'History' as an entry of a row's menu (the workflows' actions menu). Nothing without VIEW_AUDIT_LOG. */
export function HistoryMenuItem({ entityType, entityId }: Omit<HistoryTarget, 'name'>) {
  const { t } = useTranslation();
  const viewer = useViewer();
  if (!canViewHistory(viewer)) return null;
  return (
    <Menu.Item component={Link} to={historyPath(entityType, entityId)} leftSection={<IconHistory size={16} />}>
      {t('audit.history.label')}
    </Menu.Item>
  );
}

/**
 * areaActionsColumn's `history`: each row's target, or undefined for a viewer without
 * VIEW_AUDIT_LOG (the table then adds no actions column for them alone).
 */
export function rowHistory<T extends { id: number }>(
  viewer: Viewer,
  entityType: HistoryEntityType,
  name: (row: T) => string,
): ((row: T) => HistoryTarget) | undefined {
  if (!canViewHistory(viewer)) return undefined;
  return (row) => ({ entityType, entityId: row.id, name: name(row) });
}
