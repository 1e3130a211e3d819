import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Checkbox, Input, SimpleGrid, Stack, Switch, Text } from '@mantine/core';
import { LIMITS } from '@opsdeck/contract/limits';
import { type CreatedWebhookEndpoint, WEBHOOK_EVENT_TYPES, type WebhookEndpoint } from '@opsdeck/contract/webhooks';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useId, useMemo } from 'react';
import { Controller, type UseFormReturn, useController } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormModal, useModalForm } from '../../components/form-modal';
import { TextareaField, TextField } from '../../components/form-parts';
import { errorText } from '../../lib/i18n';
import { doneText } from '../../lib/notify';
import { truncateText } from '../../lib/truncate';
import type { Tenant } from '../../resources/tenant';
import { groupCheckState, toggleGroup } from '../roles/authority-checklist-model';
import { CREATE_WEBHOOK_FAILURE, UPDATE_WEBHOOK_FAILURE, useCreateWebhook, useUpdateWebhook } from './api';
import { eventLabelKey, inCatalogueOrder, WEBHOOK_EVENT_GROUPS } from './webhook-events';
import {
  emptyWebhookForm,
  toSaveWebhook,
  type WebhookFormOutput,
  type WebhookFormValues,
  webhookFormSchema,
  webhookToForm,
} from './webhook-form-schema';

const resolver = zodResolver(webhookFormSchema);

type Form = UseFormReturn<WebhookFormValues, unknown, WebhookFormOutput>;

/**
 * The events an endpoint is sent: every type of the catalogue in its group, with a tri-state
 * checkbox for all of them and one for each group (as the role form's authority checklist).
 */
function EventsChecklist({ form }: { form: Form }) {
  const { t } = useTranslation();
  const ids = useId();
  const { field, fieldState } = useController({ control: form.control, name: 'events' });
  const value: readonly string[] = field.value ?? [];
  const change = (next: string[]) => {
    field.onChange(inCatalogueOrder(next));
    field.onBlur();
  };
  const all = groupCheckState(WEBHOOK_EVENT_TYPES, value);
  const error = errorText(fieldState.error?.message ?? fieldState.error?.root?.message);
  return (
    <Stack gap={6} role="group" aria-labelledby={`${ids}-label`} aria-describedby={error ? `${ids}-error` : undefined}>
      <Input.Label id={`${ids}-label`} required>
        {t('webhooks.events')}
      </Input.Label>
      <Text size="xs" c="dimmed" mt={-6}>
        {t('webhooks.eventsHint')}
      </Text>
      <Checkbox
        fw={600}
        label={t('webhooks.selectAllEvents')}
        checked={all === 'all'}
        indeterminate={all === 'some'}
        onChange={() => change(toggleGroup(WEBHOOK_EVENT_TYPES, value))}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
        {WEBHOOK_EVENT_GROUPS.map((group) => {
          const state = groupCheckState(group.events, value);
          const groupId = `${ids}-${group.key}`;
          return (
            <Stack key={group.key} gap={4} role="group" aria-labelledby={groupId}>
              <Checkbox
                size="sm"
                fw={600}
                checked={state === 'all'}
                indeterminate={state === 'some'}
                onChange={() => change(toggleGroup(group.events, value))}
                label={<span id={groupId}>{t(`webhooks.eventGroups.${group.key}`)}</span>}
              />
              <Stack gap={4} pl="lg">
                {group.events.map((type) => (
                  <Checkbox
                    key={type}
                    size="sm"
                    value={type}
                    label={t(eventLabelKey(type))}
                    description={type}
                    checked={value.includes(type)}
                    onChange={() =>
                      change(value.includes(type) ? value.filter((other) => other !== type) : [...value, type])
                    }
                  />
                ))}
              </Stack>
            </Stack>
          );
        })}
      </SimpleGrid>
      {error && <Input.Error id={`${ids}-error`}>{error}</Input.Error>}
    </Stack>
  );
}

/** Why the server turned the endpoint off, and that enabling it sends what is still pending. */
function DisabledByServer({ reason }: { reason: string }) {
  const { t } = useTranslation();
  return (
    <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} aria-hidden="true" />}>
      {t(`webhooks.disabledReason.${reason === 'gone' ? 'gone' : reason === 'failing' ? 'failing' : 'other'}`)}{' '}
      {t('webhooks.enableAgain')}
    </Alert>
  );
}

interface WebhookFormModalProps {
  /** Whose endpoint: the stored tenant, or a company's for the provider on its company page. */
  tenant: Tenant;
  /** The endpoint to edit; none to create one. */
  endpoint?: WebhookEndpoint;
  onClose: () => void;
  /** A new endpoint, with its signing secret to be shown once. */
  onCreated: (endpoint: CreatedWebhookEndpoint) => void;
}

/**
 * Create and edit a webhook endpoint: its URL, a description, the events it is sent, and whether it
 * is enabled. An endpoint the server disabled (410 Gone, or three days of failures) says why, and is
 * enabled again here. The server's refusal of a URL (not https, a private address) shows on the URL.
 */
export function WebhookFormModal({ tenant, endpoint, onClose, onCreated }: WebhookFormModalProps) {
  const { t } = useTranslation();
  const initial = useMemo(() => (endpoint ? webhookToForm(endpoint) : emptyWebhookForm()), [endpoint]);
  const form = useModalForm<WebhookFormValues, WebhookFormOutput>({ opened: true, initial, resolver });
  const create = useCreateWebhook(tenant);
  const update = useUpdateWebhook(tenant);

  const onSubmit = async (values: WebhookFormOutput) => {
    const body = toSaveWebhook(values);
    if (endpoint) await update.mutateAsync({ id: endpoint.id, body });
    else onCreated(await create.mutateAsync(body));
  };

  return (
    <FormModal
      opened
      onClose={onClose}
      title={
        endpoint
          ? t('webhooks.editTitle', { name: truncateText(endpoint.url, LIMITS.truncate.modalName) })
          : t('webhooks.createTitle')
      }
      form={form}
      size="xl"
      onSubmit={onSubmit}
      // A new endpoint's secret dialog takes the form's place: no toast over it.
      success={(values) => (endpoint ? doneText('updated', values.url) : null)}
      failure={endpoint ? UPDATE_WEBHOOK_FAILURE : CREATE_WEBHOOK_FAILURE}
      itemName={endpoint?.url}
      submitLabel={endpoint ? undefined : t('webhooks.createSubmit')}
      errorPlacement={{
        keys: {
          ERROR_WEBHOOK_URL_REQUIRED: 'url',
          ERROR_WEBHOOK_URL_TOO_LONG: 'url',
          ERROR_WEBHOOK_URL_INVALID: 'url',
          ERROR_WEBHOOK_URL_FORBIDDEN: 'url',
          ERROR_WEBHOOK_EVENTS_REQUIRED: 'events',
          ERROR_WEBHOOK_EVENT_INVALID: 'events',
          ERROR_WEBHOOK_DESCRIPTION_TOO_LONG: 'description',
        },
      }}
    >
      {endpoint && !endpoint.enabled && endpoint.disabledReason && (
        <DisabledByServer reason={endpoint.disabledReason} />
      )}
      <TextField
        form={form}
        name="url"
        type="url"
        label={t('webhooks.url')}
        description={t('webhooks.urlHint')}
        placeholder="https://"
        required
      />
      <TextareaField form={form} name="description" label={t('webhooks.description')} rows={2} />
      <EventsChecklist form={form} />
      <Controller
        control={form.control}
        name="enabled"
        // Mantine's Switch holds its checked state in React: it is bound as a controlled input.
        render={({ field }) => (
          <Switch
            ref={field.ref}
            name={field.name}
            label={t('webhooks.enabled')}
            description={t('webhooks.enabledHint')}
            checked={field.value}
            onChange={(event) => field.onChange(event.currentTarget.checked)}
            onBlur={field.onBlur}
          />
        )}
      />
    </FormModal>
  );
}
