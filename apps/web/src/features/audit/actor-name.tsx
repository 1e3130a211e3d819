import { Badge, Group, Text } from '@mantine/core';
import type { AuditActor } from '@opsdeck/contract/audit';
import { LIMITS } from '@opsdeck/contract/limits';
import { useTranslation } from 'react-i18next';
import { Truncate } from '../../components/truncate';

/** Who acted: the person's name, with a badge when it was their API token or an agent. */
export function ActorName({ actor }: { actor: AuditActor }) {
  const { t } = useTranslation();
  return (
    <Group gap={6} wrap="nowrap" component="span">
      <Text span size="sm">
        <Truncate text={actor.name} max={LIMITS.truncate.tableContent} />
      </Text>
      {actor.type !== 'user' && (
        <Badge size="sm" variant="light" color={actor.type === 'token' ? 'grape' : 'cyan'} tt="none" component="span">
          {t(`audit.actorTypes.${actor.type}`)}
        </Badge>
      )}
    </Group>
  );
}
