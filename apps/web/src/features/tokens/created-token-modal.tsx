import { Text } from '@mantine/core';
import type { CreatedApiToken } from '@opsdeck/contract/tokens';
import { useTranslation } from 'react-i18next';
import { ShownOnceModal } from '../../components/shown-once-modal';

/** The API token just made, shown this once (docs/security.md, API tokens: only its digest is kept). */
export function CreatedTokenModal({ token, onClose }: { token: CreatedApiToken; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <ShownOnceModal
      title={t('tokens.shownOnceTitle')}
      warning={t('tokens.shownOnceWarning')}
      label={t('tokens.tokenOf', { name: token.name })}
      secret={token.token}
      copy={t('tokens.copy')}
      copied={t('tokens.copied')}
      done={t('tokens.done')}
      onClose={onClose}
    >
      <Text size="sm">{t('tokens.howToUse')}</Text>
    </ShownOnceModal>
  );
}
