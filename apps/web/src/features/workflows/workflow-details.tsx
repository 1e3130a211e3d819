import { ActionIcon, Badge, Button, Group, List, Modal, SimpleGrid, Stack, Text, Title, Tooltip } from '@mantine/core';
import { LIMITS } from '@opsdeck/contract/limits';
import type { WorkflowActivity, WorkflowDetail, WorkflowVersion } from '@opsdeck/contract/workflows';
import { IconDownload, IconStarFilled } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Column, DataTable } from '../../components/data-table/data-table';
import { DATE_FORMATS, formatEpoch } from '../../lib/dates';
import { formatBytes } from '../../lib/file-size';
import { notifyError } from '../../lib/notify';
import { truncateText } from '../../lib/truncate';
import { downloadWorkflow } from './api';

interface DetailsProps {
  workflow: WorkflowDetail;
  /** The tenant of the page that listed the workflow. */
  tenantId: string | null;
}

/** A premium activity or workflow: one only the 'pro' licence type unlocks. */
export function PremiumBadge() {
  const { t } = useTranslation();
  return (
    <Badge size="xs" color="yellow" variant="light" leftSection={<IconStarFilled size={10} aria-hidden="true" />}>
      {t('workflows.premium')}
    </Badge>
  );
}

/** Every upload of the workflow's file, newest first, each one downloadable. */
function WorkflowVersions({ workflow, tenantId }: DetailsProps) {
  const { t } = useTranslation();
  const [downloading, setDownloading] = useState<number | null>(null);
  const download = async (version: WorkflowVersion) => {
    setDownloading(version.id);
    try {
      await downloadWorkflow({ id: workflow.id, fileName: version.fileName }, { tenantId }, { version: version.id });
    } catch (error) {
      notifyError(error, version.fileName);
    } finally {
      setDownloading(null);
    }
  };
  const columns: Column<WorkflowVersion>[] = [
    { key: 'number', header: t('workflows.versions.number'), value: (row) => row.number, sortable: true, width: 70 },
    {
      key: 'createDate',
      header: t('workflows.versions.date'),
      value: (row) => row.createDate,
      render: (row) => formatEpoch(row.createDate, DATE_FORMATS.dateTime),
      sortable: true,
    },
    { key: 'createdBy', header: t('workflows.versions.by'), value: (row) => row.createdBy.completeName, priority: 2 },
    {
      key: 'size',
      header: t('workflows.versions.size'),
      value: (row) => row.size,
      render: (row) => formatBytes(row.size),
    },
    {
      key: 'download',
      header: t('workflows.versions.download'),
      align: 'right',
      width: 90,
      render: (row) => (
        <Tooltip label={t('workflows.versions.downloadNamed', { number: row.number })}>
          <ActionIcon
            variant="subtle"
            aria-label={t('workflows.versions.downloadNamed', { number: row.number })}
            loading={downloading === row.id}
            onClick={() => void download(row)}
          >
            <IconDownload size={18} />
          </ActionIcon>
        </Tooltip>
      ),
    },
  ];
  return (
    <DataTable
      columns={columns}
      rows={workflow.versions}
      rowKey={(row) => row.id}
      label={t('workflows.versions.title')}
      emptyText={t('workflows.versions.empty')}
    />
  );
}

/** The activities the current file uses, premium ones marked. */
function WorkflowActivities({ activities }: { activities: readonly WorkflowActivity[] }) {
  const { t } = useTranslation();
  if (activities.length === 0) return <Text c="dimmed">{t('workflows.activities.empty')}</Text>;
  return (
    <List spacing={4} size="sm" aria-label={t('workflows.activities.title')}>
      {activities.map((activity) => (
        <List.Item key={activity.key}>
          <Group gap={6} wrap="nowrap">
            <Text span size="sm">
              {activity.name ?? activity.key}
            </Text>
            {activity.name && (
              <Text span size="xs" c="dimmed" ff="monospace">
                {activity.key}
              </Text>
            )}
            {activity.premium && <PremiumBadge />}
          </Group>
        </List.Item>
      ))}
    </List>
  );
}

/** Below a workflow's form or summary: its versions, and the activities its file uses. */
export function WorkflowDetails({ workflow, tenantId }: DetailsProps) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      <Title order={3} fz="md">
        {t('workflows.versions.title')}
      </Title>
      <WorkflowVersions workflow={workflow} tenantId={tenantId} />
      <Title order={3} fz="md">
        {t('workflows.activities.title')}
      </Title>
      <WorkflowActivities activities={workflow.activities} />
    </Stack>
  );
}

function Fact({ label, children }: { label: string; children: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {children || '-'}
      </Text>
    </div>
  );
}

/** A workflow for a user who may not edit it (no EDIT_WORKFLOW, or a level the spec keeps read-only). */
export function WorkflowViewModal({ workflow, tenantId, onClose }: DetailsProps & { onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened
      onClose={onClose}
      size="lg"
      centered
      title={t('workflows.view.title', { name: truncateText(workflow.name, LIMITS.truncate.modalName) })}
      closeButtonProps={{ 'aria-label': t('modal.close') }}
    >
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <Fact label={t('workflows.columns.name')}>{workflow.name}</Fact>
          <Fact label={t('workflows.form.directory')}>{workflow.directory}</Fact>
          <Fact label={t('workflows.columns.description')}>{workflow.description}</Fact>
          <Fact label={t('workflows.columns.file')}>{`${workflow.file} (${formatBytes(workflow.size)})`}</Fact>
          <Fact label={t('workflows.columns.created')}>
            {`${formatEpoch(workflow.createDate, DATE_FORMATS.dateTime)}, ${workflow.creator.completeName}`}
          </Fact>
          <Fact label={t('workflows.columns.updated')}>
            {`${formatEpoch(workflow.updateDate, DATE_FORMATS.dateTime)}, ${workflow.updatedBy.completeName}`}
          </Fact>
        </SimpleGrid>
        {workflow.premium && (
          <Group>
            <PremiumBadge />
          </Group>
        )}
        <WorkflowDetails workflow={workflow} tenantId={tenantId} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} data-autofocus>
            {t('modal.close')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
