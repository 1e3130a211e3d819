import { zodResolver } from '@hookform/resolvers/zod';
import { Checkbox, Input, NumberInput, Select, Stack, Text } from '@mantine/core';
import { ALERT_CHANNELS, ALERT_KINDS, type AlertKind, type AlertRule } from '@opsdeck/contract/alerts';
import { LIMITS } from '@opsdeck/contract/limits';
import { useMemo } from 'react';
import { Controller, type UseFormReturn, useController, useFormState, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormModal, useModalForm } from '../../components/form-modal';
import { SelectField } from '../../components/form-parts';
import { errorText } from '../../lib/i18n';
import { doneText } from '../../lib/notify';
import { truncateText } from '../../lib/truncate';
import type { Tenant } from '../../resources/tenant';
import { kindLabel, ruleName } from './alert-kinds';
import {
  type AlertRuleFormOutput,
  type AlertRuleFormValues,
  alertRuleFormSchema,
  alertRuleToForm,
  emptyAlertRuleForm,
  inChannelOrder,
  type ParamName,
  paramsForKind,
  paramsOf,
  toSaveAlertRule,
} from './alert-rule-form-schema';
import { CREATE_ALERT_RULE_FAILURE, UPDATE_ALERT_RULE_FAILURE, useCreateAlertRule, useUpdateAlertRule } from './api';

const resolver = zodResolver(alertRuleFormSchema);

type Form = UseFormReturn<AlertRuleFormValues, unknown, AlertRuleFormOutput>;
type NumberParam = Exclude<ParamName, 'timeZone'>;

/** Each number parameter's bounds, as the contract's ALERT_PARAMS has them, per kind where they differ. */
const BOUNDS: Record<NumberParam, (kind: AlertKind) => { min: number; max: number }> = {
  minutes: (kind) => ({ min: 1, max: kind === 'workflow_faulted' ? 10_080 : 1_440 }),
  count: () => ({ min: 1, max: 1_000 }),
  days: () => ({ min: 1, max: 365 }),
  percent: () => ({ min: 1, max: 100 }),
};

/** The IANA zones the browser knows, UTC first. */
function timeZones(): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return ['UTC', ...known.filter((zone) => zone !== 'UTC')];
}

/** A whole-number parameter of the chosen kind, its error (the form's or the server's) under it. */
function NumberParamField({ form, kind, name }: { form: Form; kind: AlertKind; name: NumberParam }) {
  const { t } = useTranslation();
  const { min, max } = BOUNDS[name](kind);
  return (
    <Controller
      control={form.control}
      name={`params.${name}`}
      render={({ field, fieldState }) => (
        <NumberInput
          ref={field.ref}
          name={field.name}
          label={t(`alerts.params.${kind}.${name}`)}
          description={t(`alerts.params.${kind}.${name}Hint`, { min, max })}
          required
          min={min}
          max={max}
          allowDecimal={false}
          allowNegative={false}
          clampBehavior="none"
          value={field.value}
          onChange={field.onChange}
          onBlur={field.onBlur}
          error={errorText(fieldState.error?.message)}
        />
      )}
    />
  );
}

/** The offline rule's time zone: its working hours (Monday to Friday, 08:00–18:00) are that zone's. */
function TimeZoneField({ form }: { form: Form }) {
  const { t } = useTranslation();
  const zones = useMemo(timeZones, []);
  const { field, fieldState } = useController({ control: form.control, name: 'params.timeZone' });
  // A zone the browser does not list (stored by another one) stays offered.
  const data = zones.includes(field.value) ? zones : [field.value, ...zones];
  return (
    <Select
      ref={field.ref}
      name={field.name}
      label={t('alerts.params.agent_offline.timeZone')}
      description={t('alerts.params.agent_offline.timeZoneHint')}
      required
      searchable
      allowDeselect={false}
      nothingFoundMessage={t('table.empty')}
      limit={50}
      data={data}
      value={field.value}
      onChange={(value) => field.onChange(value ?? 'UTC')}
      onBlur={field.onBlur}
      error={errorText(fieldState.error?.message)}
    />
  );
}

/** The chosen kind's parameters; a kind without any says what it follows instead. */
function ParamsFields({ form }: { form: Form }) {
  const { t } = useTranslation();
  const kind = useWatch({ control: form.control, name: 'kind' });
  const { errors } = useFormState({ control: form.control, name: 'params' });
  // The server's refusal of the parameters as a whole (no field named): shown under them.
  const whole = typeof errors.params?.message === 'string' ? errorText(errors.params.message) : undefined;
  if (!kind) return null;
  const names = paramsOf(kind);
  return (
    <Stack gap="sm" data-params-of={kind}>
      {names.length === 0 && (
        <Text size="sm" c="dimmed">
          {t(`alerts.params.${kind}.none`)}
        </Text>
      )}
      {names.map((name) =>
        name === 'timeZone' ? (
          <TimeZoneField key={name} form={form} />
        ) : (
          <NumberParamField key={`${kind}-${name}`} form={form} kind={kind} name={name} />
        ),
      )}
      {whole && <Input.Error>{whole}</Input.Error>}
    </Stack>
  );
}

function ChannelsField({ form }: { form: Form }) {
  const { t } = useTranslation();
  return (
    <Controller
      control={form.control}
      name="channels"
      render={({ field, fieldState }) => (
        <Checkbox.Group
          label={t('alerts.channelsLabel')}
          description={t('alerts.channelsHint')}
          required
          value={field.value}
          onChange={(value) => {
            field.onChange(inChannelOrder(value));
            field.onBlur();
          }}
          error={errorText(fieldState.error?.message ?? fieldState.error?.root?.message)}
        >
          <Stack gap={6} mt={6}>
            {ALERT_CHANNELS.map((channel) => (
              <Checkbox
                key={channel}
                value={channel}
                label={t(`alerts.channels.${channel}`)}
                description={t(`alerts.channelHints.${channel}`)}
              />
            ))}
          </Stack>
        </Checkbox.Group>
      )}
    />
  );
}

interface AlertRuleFormModalProps {
  /** Whose rule: the stored tenant, or a company's for the provider on its company page. */
  tenant: Tenant;
  /** The rule to edit; none to create one. */
  rule?: AlertRule;
  onClose: () => void;
}

/**
 * Create and edit an alert rule (docs/alerts.md): what it watches (the kind), the kind's
 * parameters, which change with it, and where it tells (the channels). The server's refusal of a
 * parameter (`params.minutes`) shows on that parameter's field.
 */
export function AlertRuleFormModal({ tenant, rule, onClose }: AlertRuleFormModalProps) {
  const { t } = useTranslation();
  const initial = useMemo(() => (rule ? alertRuleToForm(rule) : emptyAlertRuleForm()), [rule]);
  const form = useModalForm<AlertRuleFormValues, AlertRuleFormOutput>({ opened: true, initial, resolver });
  const create = useCreateAlertRule(tenant);
  const update = useUpdateAlertRule(tenant);
  const kinds = useMemo(() => ALERT_KINDS.map((kind) => ({ value: kind, label: kindLabel(t, kind) })), [t]);

  const onSubmit = async (values: AlertRuleFormOutput) => {
    const body = toSaveAlertRule(values);
    if (rule) await update.mutateAsync({ id: rule.id, body });
    else await create.mutateAsync(body);
  };

  return (
    <FormModal
      opened
      onClose={onClose}
      title={
        rule
          ? t('alerts.editTitle', { name: truncateText(kindLabel(t, rule.kind), LIMITS.truncate.modalName) })
          : t('alerts.createTitle')
      }
      form={form}
      size="lg"
      onSubmit={onSubmit}
      success={(values) => doneText(rule ? 'updated' : 'added', kindLabel(t, values.kind as AlertKind))}
      failure={rule ? UPDATE_ALERT_RULE_FAILURE : CREATE_ALERT_RULE_FAILURE}
      itemName={rule ? ruleName(t, rule) : undefined}
      submitLabel={rule ? undefined : t('alerts.createSubmit')}
      errorPlacement={{
        fields: {
          'params.minutes': 'params.minutes',
          'params.timeZone': 'params.timeZone',
          'params.count': 'params.count',
          'params.days': 'params.days',
          'params.percent': 'params.percent',
          'channels.0': 'channels',
          'channels.1': 'channels',
          'channels.2': 'channels',
        },
        keys: {
          ERROR_ALERT_KIND_INVALID: 'kind',
          ERROR_ALERT_CHANNELS_REQUIRED: 'channels',
          ERROR_ALERT_CHANNEL_INVALID: 'channels',
        },
      }}
    >
      <SelectField
        control={form.control}
        name="kind"
        label={t('alerts.kindLabel')}
        placeholder={t('alerts.kindPlaceholder')}
        searchable={false}
        allowDeselect={false}
        required
        data={kinds}
        // Another kind has other parameters: they start again from that kind's own.
        onChange={(kind) => {
          form.setValue('params', paramsForKind(kind as AlertKind | null));
          form.clearErrors('params');
        }}
      />
      <ParamsFields form={form} />
      <ChannelsField form={form} />
    </FormModal>
  );
}
