import { Badge } from '@mantine/core';
import type { LicenseTypeKey } from '@opsdeck/contract/activities';
import { useTranslation } from 'react-i18next';

/** Spec section 2: PRO in the warning style (yellow), ENTERPRISE in the info style (blue). */
const TYPE_COLORS: Record<LicenseTypeKey, string> = { pro: 'yellow', enterprise: 'blue' };

export function LicenseTypeBadge({ type }: { type: LicenseTypeKey }) {
  const { t } = useTranslation();
  return (
    <Badge color={TYPE_COLORS[type]} variant="light">
      {t(`accounts.licenseTypes.${type}`)}
    </Badge>
  );
}

/** Whether a licence or a key still works: invalidated wins over expired. */
export function ValidityBadge({ invalidated, expired = false }: { invalidated: boolean; expired?: boolean }) {
  const { t } = useTranslation();
  if (invalidated)
    return (
      <Badge color="red" variant="light">
        {t('accounts.invalidated')}
      </Badge>
    );
  if (expired)
    return (
      <Badge color="orange" variant="light">
        {t('accounts.expired')}
      </Badge>
    );
  return (
    <Badge color="teal" variant="light">
      {t('accounts.active')}
    </Badge>
  );
}
