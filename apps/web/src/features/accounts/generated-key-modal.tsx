import { ActionIcon, Alert, Button, CopyButton, Group, Modal, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import type { GeneratedAccount } from '@opsdeck/contract/accounts';
import { IconAlertTriangle, IconCheck, IconCopy } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/**
 * The full key of a key just made, shown this once (docs/licensing.md: only its digest is kept).
 * It lives in this dialog's props alone, never in the URL, the query cache's keys or a log, and
 * is gone once the dialog closes. A click beside the dialog does not close it: a key lost that way
 * cannot be shown again.
 */
export function GeneratedKeyModal({ account, onClose }: { account: GeneratedAccount; onClose: () => void }) {
  const { t } = useTranslation();
  const owner = [account.fullName, account.departmentName].filter(Boolean).join(' · ');
  return (
    <Modal
      opened
      onClose={onClose}
      title={t('accounts.keys.shownOnceTitle')}
      centered
      size="lg"
      closeOnClickOutside={false}
      closeButtonProps={{ 'aria-label': t('modal.close') }}
    >
      <Stack gap="md">
        <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} />}>
          {t('accounts.keys.shownOnceWarning')}
        </Alert>
        {owner && <Text size="sm">{owner}</Text>}
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <TextInput
            label={t('accounts.keys.fullKey')}
            value={account.key}
            readOnly
            ff="monospace"
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            onFocus={(event) => event.currentTarget.select()}
            style={{ flex: 1 }}
          />
          <CopyButton value={account.key}>
            {({ copied, copy }) => (
              <Tooltip label={copied ? t('accounts.keys.copied') : t('accounts.keys.copy')}>
                <ActionIcon
                  size={36}
                  variant={copied ? 'filled' : 'light'}
                  color={copied ? 'teal' : undefined}
                  aria-label={copied ? t('accounts.keys.copied') : t('accounts.keys.copy')}
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
            {t('accounts.keys.done')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
