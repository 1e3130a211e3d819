import { Text } from '@mantine/core';
import type { GeneratedAccount } from '@opsdeck/contract/accounts';
import { useTranslation } from 'react-i18next';
import { ShownOnceModal } from '../../components/shown-once-modal';

/** The full key of a key just made, shown this once (docs/licensing.md: only its digest is kept). */
export function GeneratedKeyModal({ account, onClose }: { account: GeneratedAccount; onClose: () => void }) {
  const { t } = useTranslation();
  const owner = [account.fullName, account.departmentName].filter(Boolean).join(' · ');
  return (
    <ShownOnceModal
      title={t('accounts.keys.shownOnceTitle')}
      warning={t('accounts.keys.shownOnceWarning')}
      label={t('accounts.keys.fullKey')}
      secret={account.key}
      copy={t('accounts.keys.copy')}
      copied={t('accounts.keys.copied')}
      done={t('accounts.keys.done')}
      onClose={onClose}
    >
      {owner && <Text size="sm">{owner}</Text>}
    </ShownOnceModal>
  );
}
