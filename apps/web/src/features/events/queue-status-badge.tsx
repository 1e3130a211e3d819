import { Badge, Loader } from '@mantine/core';
import type { QueuedWorkflow } from '@opsdeck/contract/live';
import { useTranslation } from 'react-i18next';
import { isRunning } from '../../lib/live/live-state';
import { ordinal } from './ordinal';

/**
 * 'Running' (with a spinner) or, for a queued entry, its queue position ('2nd') or just 'Queued'.
 * Running is white on teal.9 (5:1; the light variant was 4.3:1, under WCAG AA).
 */
export function QueueStatusBadge({ item, showPosition = false }: { item: QueuedWorkflow; showPosition?: boolean }) {
  const { t } = useTranslation();
  if (isRunning(item)) {
    return (
      <Badge color="teal.9" variant="filled" leftSection={<Loader size={10} color="white" aria-hidden="true" />}>
        {t('events.item.running')}
      </Badge>
    );
  }
  return (
    <Badge color="gray" variant="light">
      {showPosition ? t('events.item.position', { position: ordinal(item.position) }) : t('events.item.queued')}
    </Badge>
  );
}
