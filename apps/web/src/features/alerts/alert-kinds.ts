import { ALERT_CHANNELS, type AlertChannel, type AlertKind } from '@opsdeck/contract/alerts';
import type { TFunction } from 'i18next';

/** A kind's name: "Agent offline". */
export const kindLabel = (t: TFunction, kind: AlertKind) => t(`alerts.kinds.${kind}`);

/** A channel's name: "Console". */
export const channelLabel = (t: TFunction, channel: AlertChannel) => t(`alerts.channels.${channel}`);

/** The channels in the contract's order, named: "Console, E-mail". */
export const channelsText = (t: TFunction, channels: readonly AlertChannel[]) =>
  ALERT_CHANNELS.filter((channel) => channels.includes(channel))
    .map((channel) => channelLabel(t, channel))
    .join(', ');

/** A span of minutes in the largest whole unit: "15 min", "2 h", "7 days". */
export function durationText(t: TFunction, minutes: number): string {
  if (minutes >= 1_440 && minutes % 1_440 === 0) return t('alerts.duration.days', { count: minutes / 1_440 });
  if (minutes >= 60 && minutes % 60 === 0) return t('alerts.duration.hours', { count: minutes / 60 });
  return t('alerts.duration.minutes', { count: minutes });
}

const numberOf = (value: unknown) => (typeof value === 'number' ? value : Number(value));

/**
 * A rule's parameters in words, as the rules table shows them: "Offline for more than 15 min
 * (Mon–Fri 08:00–18:00, UTC)". Read from the stored rule, whose params the server checked.
 */
export function describeParams(t: TFunction, kind: AlertKind, params: Readonly<Record<string, unknown>>): string {
  switch (kind) {
    case 'agent_offline':
      return t('alerts.describe.agent_offline', {
        duration: durationText(t, numberOf(params.minutes)),
        timeZone: typeof params.timeZone === 'string' && params.timeZone ? params.timeZone : 'UTC',
      });
    case 'workflow_faulted':
      return t('alerts.describe.workflow_faulted', {
        count: numberOf(params.count),
        duration: durationText(t, numberOf(params.minutes)),
      });
    case 'license_expiring':
      return t('alerts.describe.license_expiring', { count: numberOf(params.days) });
    case 'seats_nearly_full':
      return t('alerts.describe.seats_nearly_full', { percent: numberOf(params.percent) });
    case 'late_arrival':
    case 'break_over':
      return t(`alerts.describe.${kind}`);
  }
}

/** A rule as its row's actions and dialogs name it: "Agent offline: Offline for more than 15 min (…)". */
export const ruleName = (t: TFunction, rule: { kind: AlertKind; params: Readonly<Record<string, unknown>> }) =>
  `${kindLabel(t, rule.kind)}: ${describeParams(t, rule.kind, rule.params)}`;
