import { Badge } from '@mantine/core';
import type { ExecutionStatus } from '@opsdeck/contract/live';
import { useTranslation } from 'react-i18next';

/**
 * Spec section 3: a run's status upper-cased, green for success and red for faulted (grey for
 * unknown). White text on each at 4.5:1 or more: this green 5.4:1 (Mantine's green.9 is 4.4:1),
 * red.9 5.5:1, gray.7 8.2:1.
 */
const COLORS: Record<ExecutionStatus, string> = { success: '#237a36', faulted: 'red.9', unknown: 'gray.7' };

export function ExecutionStatusBadge({ status }: { status: ExecutionStatus }) {
  const { t } = useTranslation();
  return (
    // Never cut to 'SU...' in a narrow column: the badge keeps its whole word.
    <Badge color={COLORS[status]} variant="filled" data-status={status} style={{ minWidth: 'max-content' }}>
      {t(`reports.status.${status}`)}
    </Badge>
  );
}
