import {
  type BadgeFactory,
  type CSSVariablesResolver,
  createTheme,
  type ExtendComponent,
  type FactoryPayload,
  type MantineThemeComponent,
  type MenuFactory,
  type MultiSelectFactory,
  type NotificationFactory,
  type SelectFactory,
} from '@mantine/core';

/**
 * A component's theme entry, checked as `Menu.extend(...)` checks it. `extend` only hands back its
 * argument, but calling it imports the component: Menu and Select with their floating layer were
 * loaded by every page, the login page too (docs/performance.md, the console's initial JavaScript).
 */
function extend<Payload extends FactoryPayload>(input: ExtendComponent<Payload>): MantineThemeComponent {
  return input as MantineThemeComponent;
}

export const theme = createTheme({
  primaryColor: 'indigo',
  // Filled buttons and links use shade 8: white on indigo.6 (#4c6ef5) is 4.2:1 and on red.6 3.3:1,
  // below WCAG AA's 4.5:1 for text; shade 8 gives 5.7:1 (indigo) and 4.5:1 (red).
  primaryShade: { light: 8, dark: 8 },
  defaultRadius: 'md',
  fontFamily:
    'Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans JP", sans-serif',
  headings: { fontWeight: '700' },
  cursorType: 'pointer',
  components: {
    // The focus placeholder Mantine puts first in a menu is focusable (tabindex -1), so its
    // role="presentation" is ignored and the menu holds a child that is not a menu item (axe:
    // aria-required-children). Without it, an opened menu focuses its first item, as menus do.
    Menu: extend<MenuFactory>({ defaultProps: { withInitialFocusPlaceholder: false } }),
    // A toast's text under its title is gray.6 (3.3:1 on white): the dimmed grey keeps 4.5:1.
    Notification: extend<NotificationFactory>({ styles: { description: { color: 'var(--mantine-color-dimmed)' } } }),
    // A badge is a word or two that means something whole ("Enterprise", "2nd in queue"): never
    // cut to "ENTERPRI…" by a narrow table column; the column makes room for it instead.
    Badge: extend<BadgeFactory>({ styles: { root: { minWidth: 'max-content', flexShrink: 0 } } }),
    // A searchable picker opens its list when typed in, by ArrowDown or a click, not on focus: a
    // dialog can open on it (its first field) without its list covering the rest of the form.
    Select: extend<SelectFactory>({ defaultProps: { openOnFocus: false } }),
    MultiSelect: extend<MultiSelectFactory>({ defaultProps: { openOnFocus: false } }),
  },
});

/**
 * Text colours that Mantine takes from its palette at a contrast below WCAG AA (4.5:1): dimmed
 * text is gray.6 (3.3:1 on white), placeholders gray.5 (2.1:1) and error texts red.6 (3.3:1).
 * The dimmed grey below keeps 4.5:1 on white, on the page's gray.0 to gray.2 and on indigo.1
 * (a selected navigation entry); red.9 gives errors 5.5:1.
 */
export const DIMMED_TEXT = '#5f666d';

export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': DIMMED_TEXT,
    '--mantine-color-placeholder': DIMMED_TEXT,
    '--mantine-color-error': 'var(--mantine-color-red-9)',
  },
  dark: {},
});
