import { ActionIcon, Tooltip } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';

export interface CreateAction {
  /** The accessible name, and the tooltip's text. */
  label: string;
  onClick: () => void;
  withTooltip?: boolean;
}

/**
 * The spec's round create button of a list page. It sits in the page's flow, at the right end of
 * the list page's header (ListPageHeader's `create`), not fixed over the page: a fixed button
 * covered the last row's actions and the page links, and in the flow it is also a few Tabs from
 * the skip link instead of after every row (UiPath Orchestrator puts its Add button there too).
 */
export function FloatingCreateButton({ label, onClick, withTooltip = true }: CreateAction) {
  const button = (
    <ActionIcon size={48} radius="xl" aria-label={label} onClick={onClick} style={{ flex: 'none' }}>
      <IconPlus size={26} />
    </ActionIcon>
  );
  return withTooltip ? <Tooltip label={label}>{button}</Tooltip> : button;
}
