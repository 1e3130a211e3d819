import { Badge, Group, Modal, SimpleGrid, Stack, Text } from '@mantine/core';
import { LIMITS } from '@opsdeck/contract/limits';
import type { ExecutionException, ExecutionLog } from '@opsdeck/contract/reports';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Truncate } from '../../components/truncate';
import { formatLogDate } from './execution-columns';
import { ExecutionStatusBadge } from './execution-status-badge';
import { executorName, formatRuntime } from './report-format';

function Fact({ label, wide = false, children }: { label: string; wide?: boolean; children: ReactNode }) {
  return (
    <div style={wide ? { gridColumn: '1 / -1' } : undefined}>
      <Text component="dt" size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text component="dd" m={0} size="sm" style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
        {children}
      </Text>
    </div>
  );
}

/** Lines of one fact, each on its own row; missing values are left out, and none at all is '-'. */
function Lines({ values }: { values: readonly (ReactNode | null | undefined)[] }) {
  const shown = values.filter((value) => value !== null && value !== undefined && value !== '');
  if (shown.length === 0) return '-';
  return (
    <>
      {shown.map((value, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list of lines, never reordered
        <span key={index} style={{ display: 'block' }}>
          {value}
        </span>
      ))}
    </>
  );
}

const isLog = (row: ExecutionException): row is ExecutionLog => 'statusType' in row;

interface ExecutionDetailsModalProps {
  /** The run to show; null keeps the modal closed. */
  run: ExecutionException | ExecutionLog | null;
  onClose: () => void;
}

/**
 * A run of the exceptions or logs table in full: the whole message (the table cuts it at 50
 * characters), the activity, the machine (MAC address and host name), the workflow and the version
 * that ran, the times, the executor, and for a log its status, company and department.
 */
export function ExecutionDetailsModal({ run, onClose }: ExecutionDetailsModalProps) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={run !== null}
      onClose={onClose}
      size="lg"
      centered
      title={
        run ? (
          <Truncate
            text={t('reports.details.title', { workflow: run.workflowName })}
            max={LIMITS.truncate.modalName}
            fw={600}
          />
        ) : null
      }
      closeButtonProps={{ 'aria-label': t('modal.close') }}
    >
      {run && (
        <Stack gap="md" data-testid="execution-details">
          {isLog(run) && (
            <Group gap="xs">
              <ExecutionStatusBadge status={run.statusType} />
              <Badge variant="light" color="gray">
                {formatRuntime(run.executionEnd - run.executionStart)}
              </Badge>
            </Group>
          )}
          <SimpleGrid component="dl" cols={{ base: 1, xs: 2 }} spacing="md" m={0}>
            <Fact label={t('reports.details.message')} wide>
              {run.errorMessage || t('reports.details.noMessage')}
            </Fact>
            <Fact label={t('reports.details.activity')}>{run.errorActivity || '-'}</Fact>
            <Fact label={t('reports.details.workflow')}>
              <Lines
                values={[
                  run.workflowName,
                  run.workflowVersion !== null ? t('reports.details.version', { version: run.workflowVersion }) : null,
                ]}
              />
            </Fact>
            <Fact label={t('reports.details.machine')}>
              <Lines
                values={[
                  `${t('reports.columns.macAddress')}: ${run.macAddress || '-'}`,
                  `${t('reports.details.hostname')}: ${run.hostname || '-'}`,
                ]}
              />
            </Fact>
            <Fact label={t('reports.details.times')}>
              <Lines
                values={[
                  `${t('reports.columns.executionStart')}: ${formatLogDate(run.executionStart)}`,
                  isLog(run) ? `${t('reports.columns.executionEnd')}: ${formatLogDate(run.executionEnd)}` : null,
                  isLog(run)
                    ? `${t('reports.columns.runtime')}: ${formatRuntime(run.executionEnd - run.executionStart)}`
                    : null,
                ]}
              />
            </Fact>
            <Fact label={t('reports.details.executor')}>
              <Lines values={[executorName(run.executedBy), run.emailAddress]} />
            </Fact>
            {isLog(run) && (
              <Fact label={t('reports.details.organisation')}>
                <Lines values={[run.companyName, run.departmentName]} />
              </Fact>
            )}
          </SimpleGrid>
        </Stack>
      )}
    </Modal>
  );
}
