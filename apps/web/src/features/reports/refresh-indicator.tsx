import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { RefreshMode } from './use-report-refresh';
import { POLL_MS } from './use-report-refresh';

/** How the page keeps current: live (teal.9 under white, 5:1), polling (grey), or not at all for a past range. */
export function RefreshIndicator({ mode }: { mode: RefreshMode }) {
  const { t } = useTranslation();
  if (mode === 'past') return null;
  return (
    <Badge
      variant={mode === 'live' ? 'filled' : 'light'}
      color={mode === 'live' ? 'teal.9' : 'gray'}
      size="lg"
      data-testid="report-refresh"
      data-mode={mode}
    >
      {mode === 'live' ? t('reports.live.live') : t('reports.live.polling', { seconds: POLL_MS / 1000 })}
    </Badge>
  );
}
