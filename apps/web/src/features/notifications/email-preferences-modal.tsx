import { zodResolver } from '@hookform/resolvers/zod';
import { Stack, Switch, Text } from '@mantine/core';
import { ALERT_KINDS, NotificationPreferences } from '@opsdeck/contract/alerts';
import { useMemo } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormModal, useModalForm } from '../../components/form-modal';
import { LoadForEdit } from '../../components/load-for-edit';
import { kindLabel } from '../alerts/alert-kinds';
import { notificationKeys, preferencesQueryOptions, useSavePreferences } from './api';

const resolver = zodResolver(NotificationPreferences);
type Values = NotificationPreferences;

/** Every kind, on unless the stored preferences turn it off (absent: on). */
const toForm = (stored: NotificationPreferences): Values => ({
  email: Object.fromEntries(ALERT_KINDS.map((kind) => [kind, stored.email[kind] ?? true])) as Values['email'],
});

function PreferencesForm({ stored, onClose }: { stored: NotificationPreferences; onClose: () => void }) {
  const { t } = useTranslation();
  const initial = useMemo(() => toForm(stored), [stored]);
  const form = useModalForm<Values, Values>({ opened: true, initial, resolver });
  const save = useSavePreferences();
  return (
    <FormModal
      opened
      onClose={onClose}
      title={t('notifications.preferences.title')}
      form={form}
      onSubmit={(values) => save.mutateAsync(values)}
      success={() => t('notifications.preferences.saved')}
    >
      <Text size="sm">{t('notifications.preferences.intro')}</Text>
      <Stack gap="sm">
        {ALERT_KINDS.map((kind) => (
          <Controller
            key={kind}
            control={form.control}
            name={`email.${kind}`}
            // Mantine's Switch holds its checked state in React: it is bound as a controlled input.
            render={({ field }) => (
              <Switch
                ref={field.ref}
                name={field.name}
                label={kindLabel(t, kind)}
                checked={field.value ?? true}
                onChange={(event) => field.onChange(event.currentTarget.checked)}
                onBlur={field.onBlur}
              />
            )}
          />
        ))}
      </Stack>
    </FormModal>
  );
}

/**
 * The person's e-mail preferences: a switch per kind of alert, for the rules that send e-mail.
 * Read fresh when opened; a failed read toasts and closes.
 */
export function EmailPreferencesModal({ onClose }: { onClose: () => void }) {
  return (
    <LoadForEdit query={preferencesQueryOptions()} invalidate={notificationKeys.preferences} onClose={onClose}>
      {(stored) => <PreferencesForm stored={stored} onClose={onClose} />}
    </LoadForEdit>
  );
}
