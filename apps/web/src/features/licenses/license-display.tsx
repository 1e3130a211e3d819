import { Badge } from '@mantine/core';
import type { License } from '@opsdeck/contract/licenses';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';

type LicenseTypeKey = License['type']['key'];

/** Spec section 2: PRO in the warning style, ENTERPRISE in the info style. */
const TYPE_COLORS: Record<LicenseTypeKey, string> = { pro: 'yellow', enterprise: 'blue' };

/**
 * Text colours for the light badges whose palette text is below WCAG AA (4.5:1) on their own tint:
 * yellow.9 on yellow.1 is 2.7:1 and green.9 on green.1 3.8:1; these give 6.7:1 and 5.5:1. Blue
 * and red keep Mantine's (4.9:1 and 4.5:1).
 */
const LIGHT_TEXT: Partial<Record<string, string>> = { yellow: '#7a4a00', green: '#1c6e2e' };

/** A licence type's badge: its key upper-cased ('PRO'), its name for screen readers and on hover. */
export function LicenseTypeBadge({ type }: { type: License['type'] }) {
  return (
    <Badge
      color={TYPE_COLORS[type.key]}
      c={LIGHT_TEXT[TYPE_COLORS[type.key]]}
      variant="light"
      title={type.name}
      data-license-type={type.key}
    >
      {type.key.toUpperCase()}
    </Badge>
  );
}

/** Whether new keys can be made on the licence: invalidated first, then expired, else active. */
export function licenseState(license: Pick<License, 'invalidated' | 'expired'>) {
  if (license.invalidated) return 'invalidated' as const;
  if (license.expired) return 'expired' as const;
  return 'active' as const;
}

/** White on orange.8 is 3.6:1: an expired licence's badge takes a darker orange (5.2:1), red.8 keeps 4.5:1. */
const STATE_COLORS = { active: 'green', expired: '#b84a0a', invalidated: 'red' } as const;

/** The state of a licence, or of a key (`expired` left out: a key is invalidated or active). */
export function LicenseStateBadge({ invalidated, expired = false }: { invalidated: boolean; expired?: boolean }) {
  const { t } = useTranslation();
  const state = licenseState({ invalidated, expired });
  return (
    <Badge
      color={STATE_COLORS[state]}
      c={state === 'active' ? LIGHT_TEXT[STATE_COLORS[state]] : undefined}
      variant={state === 'active' ? 'light' : 'filled'}
    >
      {t(`licenses.state.${state}`)}
    </Badge>
  );
}

/** What names a licence in action labels, dialogs and toasts: its label, else its type and id. */
export function licenseName(t: TFunction, license: Pick<License, 'id' | 'label' | 'type'>): string {
  return license.label.trim() || t('licenses.unnamed', { type: license.type.name, id: license.id });
}
