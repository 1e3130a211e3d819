import {
  ALERT_CHANNELS,
  ALERT_KINDS,
  ALERT_PARAMS,
  type AlertChannel,
  type AlertKind,
  type AlertRule,
  SaveAlertRule,
} from '@opsdeck/contract/alerts';
import { z } from 'zod';

/** Every parameter a kind may have; each kind uses some of them (the contract's ALERT_PARAMS). */
export const PARAM_NAMES = ['minutes', 'timeZone', 'count', 'days', 'percent'] as const;
export type ParamName = (typeof PARAM_NAMES)[number];

/** The parameters of `kind`, in the order the form shows them. */
export const paramsOf = (kind: AlertKind): ParamName[] =>
  PARAM_NAMES.filter((name) => name in ALERT_PARAMS[kind].shape);

/** A NumberInput's value: a number, or '' while empty. */
const numberish = z.union([z.number(), z.string()]);

/** The channels' rule of the contract (at least one, each known). */
const channels = SaveAlertRule.options[0].shape.channels;

/**
 * The rule form: the kind, the parameters of every kind side by side (only the chosen kind's are
 * shown, checked and sent, against the contract's ALERT_PARAMS), and the channels. A parameter's
 * problem sits on its field, as the server's `params.<name>` field keys do.
 */
export const alertRuleFormSchema = z
  .object({
    kind: z
      .enum(ALERT_KINDS, { error: 'ERROR_ALERT_KIND_INVALID' })
      .nullable()
      .refine((kind) => kind !== null, 'ERROR_ALERT_KIND_INVALID'),
    params: z.object({
      minutes: numberish,
      timeZone: z.string(),
      count: numberish,
      days: numberish,
      percent: numberish,
    }),
    channels,
  })
  .superRefine((values, ctx) => {
    if (!values.kind) return;
    const checked = ALERT_PARAMS[values.kind].safeParse(paramValues(values.kind, values.params));
    for (const issue of checked.error?.issues ?? [])
      ctx.addIssue({ code: 'custom', path: ['params', ...issue.path], message: issue.message });
  });

export type AlertRuleFormValues = z.input<typeof alertRuleFormSchema>;
export type AlertRuleFormOutput = z.output<typeof alertRuleFormSchema>;
type ParamValues = AlertRuleFormValues['params'];

/** The browser's time zone, the offline rule's first choice; UTC where it cannot be told. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** Each kind's parameters when it is chosen: a reasonable start, changed at will. */
function startingParams(kind: AlertKind): Partial<ParamValues> {
  switch (kind) {
    case 'agent_offline':
      return { minutes: 15, timeZone: browserTimeZone() };
    case 'workflow_faulted':
      return { count: 3, minutes: 60 };
    case 'license_expiring':
      return { days: 30 };
    case 'seats_nearly_full':
      return { percent: 90 };
    default:
      return {};
  }
}

const noParams = (): ParamValues => ({ minutes: '', timeZone: 'UTC', count: '', days: '', percent: '' });

/** The parameters after choosing `kind`: its starting values (what another kind had typed is dropped). */
export const paramsForKind = (kind: AlertKind | null): ParamValues => ({
  ...noParams(),
  ...(kind ? startingParams(kind) : {}),
});

/** A new rule: no kind chosen yet, told in the console. */
export const emptyAlertRuleForm = (): AlertRuleFormValues => ({
  kind: null,
  params: paramsForKind(null),
  channels: ['console'],
});

export const alertRuleToForm = (rule: AlertRule): AlertRuleFormValues => {
  const params = noParams();
  for (const name of PARAM_NAMES) {
    const value = rule.params[name];
    if (name === 'timeZone' ? typeof value === 'string' : typeof value === 'number')
      (params as Record<string, unknown>)[name] = value;
  }
  return { kind: rule.kind, params, channels: [...rule.channels] };
};

/** The chosen kind's parameters as the contract takes them: numbers, an empty one left out. */
function paramValues(kind: AlertKind, params: ParamValues): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const name of paramsOf(kind)) {
    const value = params[name];
    if (name === 'timeZone') values[name] = value;
    else if (value !== '') values[name] = typeof value === 'number' ? value : Number(value);
  }
  return values;
}

export const toSaveAlertRule = (values: AlertRuleFormOutput): SaveAlertRule => {
  const kind = values.kind as AlertKind;
  return {
    kind,
    params: paramValues(kind, values.params),
    channels: ALERT_CHANNELS.filter((channel) => values.channels.includes(channel)),
  } as SaveAlertRule;
};

/** The channels in the contract's order. */
export const inChannelOrder = (chosen: readonly string[]): AlertChannel[] =>
  ALERT_CHANNELS.filter((channel) => chosen.includes(channel));
