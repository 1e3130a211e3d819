import { ActionIcon, Alert, Button, CopyButton, Group, Modal, Stack, TextInput, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface ShownOnceModalProps {
  title: string;
  /** Why it will not be shown again. */
  warning: string;
  /** The secret's field label. */
  label: string;
  secret: string;
  copy: string;
  copied: string;
  done: string;
  onClose: () => void;
  /** What else the dialog says, between the warning and the secret. */
  children?: ReactNode;
}

/**
 * A secret the server answers once and keeps only as a digest (a licence key, an API token): in
 * this dialog's props alone, never in the URL, the query cache's keys or a log, and gone once the
 * dialog closes. A click beside the dialog does not close it: a secret lost that way cannot be
 * shown again.
 */
export function ShownOnceModal({
  title,
  warning,
  label,
  secret,
  copy,
  copied,
  done,
  onClose,
  children,
}: ShownOnceModalProps) {
  const { t } = useTranslation();
  return (
    <Modal
      opened
      onClose={onClose}
      title={title}
      centered
      size="lg"
      closeOnClickOutside={false}
      closeButtonProps={{ 'aria-label': t('modal.close') }}
    >
      <Stack gap="md">
        <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} aria-hidden="true" />}>
          {warning}
        </Alert>
        {children}
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <TextInput
            label={label}
            value={secret}
            readOnly
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            onFocus={(event) => event.currentTarget.select()}
            style={{ flex: 1 }}
          />
          <CopyButton value={secret}>
            {({ copied: isCopied, copy: copyNow }) => (
              <Tooltip label={isCopied ? copied : copy}>
                <ActionIcon
                  size={36}
                  variant={isCopied ? 'filled' : 'light'}
                  color={isCopied ? 'teal' : undefined}
                  aria-label={isCopied ? copied : copy}
                  onClick={copyNow}
                >
                  {isCopied ? <IconCheck size={18} /> : <IconCopy size={18} />}
                </ActionIcon>
              </Tooltip>
            )}
          </CopyButton>
        </Group>
        <Group justify="flex-end">
          <Button onClick={onClose} data-autofocus>
            {done}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
