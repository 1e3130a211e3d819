import { Anchor, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Spec section 9: MAC addresses show the first 3. */
export const MAC_ADDRESSES_SHOWN = 3;

/** A row's MAC addresses, one a line: the first three, and See More / See Less for the rest. */
export function MacAddresses({ addresses }: { addresses: readonly string[] }) {
  const { t } = useTranslation();
  const [expanded, setExpanded] = useState(false);
  if (addresses.length === 0) return '-';
  const more = addresses.length > MAC_ADDRESSES_SHOWN;
  const shown = expanded || !more ? addresses : addresses.slice(0, MAC_ADDRESSES_SHOWN);
  return (
    <Stack gap={2} align="flex-start">
      {shown.map((address) => (
        <Text key={address} size="sm" ff="monospace">
          {address}
        </Text>
      ))}
      {more && (
        <Anchor
          component="button"
          type="button"
          size="xs"
          aria-expanded={expanded}
          onClick={(event) => {
            // The row may be clickable; the toggle is only a toggle.
            event.stopPropagation();
            setExpanded((open) => !open);
          }}
        >
          {expanded ? t('accounts.seeLess') : t('accounts.seeMore')}
        </Anchor>
      )}
    </Stack>
  );
}
