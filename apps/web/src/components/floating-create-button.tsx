import { ActionIcon, Menu, Tooltip } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import type { ReactNode } from 'react';

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

export interface CreateMenuItem {
  label: string;
  onClick: () => void;
  icon?: ReactNode;
}

interface CreateMenuProps {
  /** The button's accessible name, and the tooltip's text. */
  label: string;
  items: readonly CreateMenuItem[];
  /**
   * Why nothing can be created now (an expired licence): the button shows disabled with the
   * reason as its tooltip and accessible name, and opens no menu.
   */
  disabledReason?: string;
}

/** The round create button when there is more than one way to create: it opens a menu of them. */
export function FloatingCreateMenu({ label, items, disabledReason }: CreateMenuProps) {
  if (disabledReason)
    return (
      // data-disabled rather than disabled: a disabled button gets no hover or focus, so its
      // tooltip, the reason, could never show (as RowActions does for a blocked delete).
      <Tooltip label={disabledReason}>
        <ActionIcon
          size={48}
          radius="xl"
          data-disabled
          aria-disabled="true"
          aria-label={`${label}: ${disabledReason}`}
          onClick={(event) => event.preventDefault()}
          style={{ flex: 'none' }}
        >
          <IconPlus size={26} />
        </ActionIcon>
      </Tooltip>
    );
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Tooltip label={label}>
          <ActionIcon size={48} radius="xl" aria-label={label} style={{ flex: 'none' }}>
            <IconPlus size={26} />
          </ActionIcon>
        </Tooltip>
      </Menu.Target>
      <Menu.Dropdown>
        {items.map((item) => (
          <Menu.Item key={item.label} leftSection={item.icon} onClick={item.onClick}>
            {item.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
