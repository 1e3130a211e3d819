import type { MantineColor } from '@mantine/core';
import type { WidgetAnswer, WidgetKey } from '@opsdeck/contract/monitor';

/** What each widget's view is given: its answer (never empty: `WidgetBody` says so first) and its title. */
export interface ViewProps<K extends WidgetKey> {
  data: WidgetAnswer<K>;
  title: string;
}

/** The applications' colours on the dark chart box, in the order of their time; `Other` is grey. */
const SERIES_COLORS: readonly MantineColor[] = [
  'indigo.4',
  'teal.4',
  'yellow.4',
  'pink.4',
  'cyan.4',
  'orange.4',
  'lime.4',
  'grape.4',
];
export const OTHER_COLOR: MantineColor = 'gray.5';
/** How many applications get a colour of their own; the rest share `Other`'s. */
export const SERIES_COLOR_COUNT = SERIES_COLORS.length;

export const seriesColor = (index: number): MantineColor => SERIES_COLORS[index % SERIES_COLORS.length] ?? OTHER_COLOR;
