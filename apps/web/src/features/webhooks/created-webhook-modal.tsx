import { Text } from '@mantine/core';
import type { CreatedWebhookEndpoint } from '@opsdeck/contract/webhooks';
import { useTranslation } from 'react-i18next';
import { ShownOnceModal } from '../../components/shown-once-modal';

/** A new endpoint's signing secret, shown this once (the server answers it only on create). */
export function CreatedWebhookModal({ endpoint, onClose }: { endpoint: CreatedWebhookEndpoint; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <ShownOnceModal
      title={t('webhooks.shownOnceTitle')}
      warning={t('webhooks.shownOnceWarning')}
      label={t('webhooks.secret')}
      secret={endpoint.secret}
      copy={t('webhooks.copy')}
      copied={t('webhooks.copied')}
      done={t('webhooks.done')}
      onClose={onClose}
    >
      <Text size="sm">{t('webhooks.howToVerify')}</Text>
    </ShownOnceModal>
  );
}
