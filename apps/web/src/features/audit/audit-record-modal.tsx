import {
  Alert,
  Badge,
  Button,
  Group,
  Loader,
  Modal,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { AUDIT_REDACTED, type AuditChange, type AuditRecord } from '@opsdeck/contract/audit';
import { LIMITS } from '@opsdeck/contract/limits';
import type { TFunction } from 'i18next';
import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Truncate } from '../../components/truncate';
import { ActorName } from './actor-name';
import { actionLabel, changeValue, entityTypeLabel, fieldLabel, formatAuditTime } from './audit-format';

function Fact({ label, wide = false, children }: { label: string; wide?: boolean; children: ReactNode }) {
  return (
    <div style={wide ? { gridColumn: '1 / -1' } : undefined}>
      <Text component="dt" size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text component="dd" m={0} size="sm" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}

/** One side of a change: a muted 'hidden' for a secret, a muted 'empty', an em dash for nothing. */
function ChangeCell({ t, value }: { t: TFunction; value: unknown }) {
  const shown = changeValue(t, value);
  switch (shown.kind) {
    case 'none':
      return (
        <>
          <span aria-hidden="true">—</span>
          <VisuallyHidden>{t('audit.details.none')}</VisuallyHidden>
        </>
      );
    case 'hidden':
      return (
        <Text span size="sm" c="dimmed" fs="italic">
          {t('audit.details.hidden')}
        </Text>
      );
    case 'empty':
      return (
        <Text span size="sm" c="dimmed" fs="italic">
          {t('audit.details.empty')}
        </Text>
      );
    case 'text':
      return <span style={{ whiteSpace: 'pre-wrap' }}>{shown.text}</span>;
  }
}

/** The before/after table of a record's changes, one row a field. */
export function ChangesTable({ changes }: { changes: readonly AuditChange[] }) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <Stack gap="xs">
      <Title order={3} fz="md" id={titleId}>
        {t('audit.details.changes')}
      </Title>
      {changes.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('audit.details.noChanges')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={420} type="native">
          <Table aria-labelledby={titleId} withTableBorder striped verticalSpacing="xs" layout="fixed">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col" w="26%">
                  {t('audit.details.field')}
                </Table.Th>
                <Table.Th scope="col">{t('audit.details.before')}</Table.Th>
                <Table.Th scope="col">{t('audit.details.after')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {changes.map((change) => (
                <Table.Tr key={change.field}>
                  <Table.Th scope="row" fw={600} style={{ overflowWrap: 'anywhere' }}>
                    {fieldLabel(t, change.field)}
                  </Table.Th>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>
                    <ChangeCell t={t} value={change.before} />
                  </Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>
                    <ChangeCell t={t} value={change.after} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {changes.some((change) => change.before === AUDIT_REDACTED || change.after === AUDIT_REDACTED) && (
        <Text size="xs" c="dimmed">
          {t('audit.details.hiddenHint')}
        </Text>
      )}
    </Stack>
  );
}

/** What the record names: its entity's type and name, or its id when it has no name. */
export function entityText(t: TFunction, record: Pick<AuditRecord, 'entityType' | 'entityName' | 'entityId'>) {
  const name = record.entityName ?? (record.entityId ? t('audit.filters.entityUnnamed', { id: record.entityId }) : '');
  return [entityTypeLabel(t, record.entityType), name].filter(Boolean).join(' ');
}

interface AuditRecordModalProps {
  /** The record's id while the view is open; null keeps it closed. */
  id: number | null;
  /** The record, once known (from the table's page, or read by its id). */
  record: AuditRecord | undefined;
  loading: boolean;
  failed: boolean;
  /** The company fact: the provider sees every company's records. */
  showsCompany: boolean;
  onClose: () => void;
}

/**
 * One audit record: who did what to which entity, when and from where, and a readable before/after
 * table of the fields it changed (lists joined, nothing as an em dash, secrets as 'hidden').
 */
export function AuditRecordModal({ id, record, loading, failed, showsCompany, onClose }: AuditRecordModalProps) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={id !== null}
      onClose={onClose}
      size="xl"
      centered
      title={
        record ? (
          <Truncate
            text={t('audit.details.title', { action: actionLabel(t, record.action), entity: entityText(t, record) })}
            max={LIMITS.truncate.modalName * 2}
            fw={600}
          />
        ) : (
          <Text fw={600}>{t('audit.title')}</Text>
        )
      }
      closeButtonProps={{ 'aria-label': t('modal.close') }}
    >
      {record ? (
        <Stack gap="lg" data-testid="audit-record">
          <SimpleGrid component="dl" cols={{ base: 1, xs: 2 }} spacing="md" m={0}>
            <Fact label={t('audit.details.at')}>{formatAuditTime(record.at)}</Fact>
            <Fact label={t('audit.details.person')}>
              <ActorName actor={record.actor} />
            </Fact>
            <Fact label={t('audit.details.action')}>
              <Group gap={6} component="span">
                {actionLabel(t, record.action)}
                <Badge variant="light" color="gray" tt="none" ff="monospace" component="span">
                  {record.action}
                </Badge>
              </Group>
            </Fact>
            <Fact label={t('audit.details.entity')}>
              {entityText(t, record)}
              {record.entityId && record.entityName ? (
                <Text span size="xs" c="dimmed" ml={6}>
                  {t('audit.details.entityId', { id: record.entityId })}
                </Text>
              ) : null}
            </Fact>
            {showsCompany && (
              <Fact label={t('audit.details.company')}>{record.companyName ?? t('audit.provider')}</Fact>
            )}
            <Fact label={t('audit.details.address')}>{record.address ?? '—'}</Fact>
            <Fact label={t('audit.details.userAgent')} wide>
              {record.userAgent ?? '—'}
            </Fact>
          </SimpleGrid>
          <ChangesTable changes={record.changes} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} data-autofocus>
              {t('modal.close')}
            </Button>
          </Group>
        </Stack>
      ) : failed ? (
        <Alert color="red">{t('audit.details.loadFailed')}</Alert>
      ) : loading ? (
        <Group justify="center" py="xl">
          <Loader size="sm" aria-label={t('table.loading')} />
        </Group>
      ) : null}
    </Modal>
  );
}
