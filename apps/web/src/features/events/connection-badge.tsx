import { Badge, type MantineColor } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ConnectionStatus } from './live-source';

const COLORS: Record<ConnectionStatus, MantineColor> = {
  connecting: 'gray',
  connected: 'teal',
  reconnecting: 'yellow',
  refused: 'red',
};

/** The live channel's state, announced politely as it changes (role=status). */
export function ConnectionBadge({ status }: { status: ConnectionStatus }) {
  const { t } = useTranslation();
  return (
    <Badge
      role="status"
      data-testid="live-status"
      data-status={status}
      color={COLORS[status]}
      variant={status === 'connected' ? 'filled' : 'light'}
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
