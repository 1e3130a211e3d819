import { Badge, type MantineColor } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ConnectionStatus } from '../../lib/live/live-source';

/** Each with text of at least 4.5:1 on its background (axe): teal.9 under white, yellow under dark text. */
const COLORS: Record<ConnectionStatus, { color: MantineColor; variant: 'filled' | 'light' }> = {
  connecting: { color: 'gray', variant: 'light' },
  connected: { color: 'teal.9', variant: 'filled' },
  reconnecting: { color: 'yellow.3', variant: 'filled' },
  refused: { color: 'red', variant: 'light' },
};

/** The live channel's state, announced politely as it changes (role=status). */
export function ConnectionBadge({ status }: { status: ConnectionStatus }) {
  const { t } = useTranslation();
  return (
    <Badge
      role="status"
      data-testid="live-status"
      data-status={status}
      color={COLORS[status].color}
      variant={COLORS[status].variant}
      autoContrast
      size="lg"
      leftSection={
        <span
          aria-hidden="true"
          style={{ display: 'inline-block', width: 8, height: 8, borderRadius: '50%', background: 'currentColor' }}
        />
      }
    >
      {t(`events.connection.${status}`)}
    </Badge>
  );
}
