import { ActionIcon, Affix, Box, Tooltip } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';

interface FloatingCreateButtonProps {
  /** The accessible name, and the tooltip's text. */
  label: string;
  onClick: () => void;
  withTooltip?: boolean;
}

/**
 * The round create button at the bottom right of a list page (spec section 2). The space it
 * leaves below the page lets the last rows and the page links scroll clear of it.
 */
export function FloatingCreateButton({ label, onClick, withTooltip = true }: FloatingCreateButtonProps) {
  const button = (
    <ActionIcon size={56} radius="xl" aria-label={label} onClick={onClick}>
      <IconPlus size={28} />
    </ActionIcon>
  );
  return (
    <>
      <Box h={64} aria-hidden="true" />
      <Affix position={{ bottom: 32, right: 32 }}>
        {withTooltip ? <Tooltip label={label}>{button}</Tooltip> : button}
      </Affix>
    </>
  );
}
