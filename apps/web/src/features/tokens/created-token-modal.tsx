import { ActionIcon, Alert, Button, CopyButton, Group, Modal, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import type { CreatedApiToken } from '@opsdeck/contract/tokens';
import { IconAlertTriangle, IconCheck, IconCopy } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/**
 * The token just made, shown this once (only its digest is kept): in this dialog's props alone,
 * never in the URL, the query cache or a log, and gone once the dialog closes. A click beside the
 * dialog does not close it.
 */
export function CreatedTokenModal({ token, onClose }: { token: CreatedApiToken; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened
      onClose={onClose}
      title={t('tokens.shownOnceTitle')}
      centered
      size="lg"
      closeOnClickOutside={false}
      closeButtonProps={{ 'aria-label': t('modal.close') }}
    >
      <Stack gap="md">
        <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} aria-hidden="true" />}>
          {t('tokens.shownOnceWarning')}
        </Alert>
        <Text size="sm">{t('tokens.howToUse')}</Text>
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <TextInput
            label={t('tokens.tokenOf', { name: token.name })}
            value={token.token}
            readOnly
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            onFocus={(event) => event.currentTarget.select()}
            style={{ flex: 1 }}
          />
          <CopyButton value={token.token}>
            {({ copied, copy }) => (
              <Tooltip label={copied ? t('tokens.copied') : t('tokens.copy')}>
                <ActionIcon
                  size={36}
                  variant={copied ? 'filled' : 'light'}
                  color={copied ? 'teal' : undefined}
                  aria-label={copied ? t('tokens.copied') : t('tokens.copy')}
                  onClick={copy}
                >
                  {copied ? <IconCheck size={18} /> : <IconCopy size={18} />}
                </ActionIcon>
              </Tooltip>
            )}
          </CopyButton>
        </Group>
        <Group justify="flex-end">
          <Button onClick={onClose} data-autofocus>
            {t('tokens.done')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
