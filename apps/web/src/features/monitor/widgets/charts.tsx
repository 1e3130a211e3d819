import '@mantine/charts/styles.css';
import { AreaChart, BarChart } from '@mantine/charts';
import type { MantineColor } from '@mantine/core';
import type { CSSProperties } from 'react';
import { CHART_HEIGHT } from './chart-frame';

/**
 * The monitor's recharts-drawn charts, in one chunk of their own loaded only once a widget has
 * something to draw (`lazy-charts.ts`). Each is a picture: `ChartFrame` names it (role img) and
 * keeps the same figures as a table, so recharts' own keyboard layer is switched off (a second,
 * tooltip-only way to the same numbers). Colours are the theme's, on the frame's dark box.
 */

export interface ChartSeries {
  /** The data's key: a plain identifier (recharts reads dots in a key as a path). */
  name: string;
  label: string;
  color: MantineColor;
}

const DARK_BOX = { textColor: 'gray.3', gridColor: 'dark.4', accessibilityLayer: false } as const;
// The bar charts' hover band, set as their CSS variable: BarChart 9.7.3 also hands its `cursorFill`
// prop on to its root element, which React warns about.
const DARK_CURSOR = { '--chart-cursor-fill': 'var(--mantine-color-dark-5)' } as CSSProperties;

/** One bar per item, longest first, its name on the left (top applications, statuses, tasks). */
export function TopBarsChart({
  bars,
  seriesLabel,
  formatValue,
}: {
  bars: readonly { name: string; value: number; color?: MantineColor }[];
  seriesLabel: string;
  formatValue: (value: number) => string;
}) {
  return (
    <BarChart
      {...DARK_BOX}
      h={CHART_HEIGHT}
      data={[...bars]}
      dataKey="name"
      orientation="vertical"
      series={[{ name: 'value', label: seriesLabel, color: 'indigo.4' }]}
      style={DARK_CURSOR}
      valueFormatter={formatValue}
      // Every name shown, on one line: longer ones are cut (the table has them whole).
      yAxisProps={{
        width: 110,
        interval: 0,
        tickFormatter: (name: string) => (name.length > 14 ? `${name.slice(0, 13)}…` : name),
      }}
      maxBarWidth={22}
    />
  );
}

interface SeriesChartProps {
  data: Record<string, string | number>[];
  dataKey: string;
  series: readonly ChartSeries[];
  formatCategory: (value: string) => string;
  formatValue: (value: number) => string;
}

/** What the stacked charts share: the dark box, the height, the series stacked with a legend, the formats. */
const stackedProps = ({ data, dataKey, series, formatCategory, formatValue }: SeriesChartProps) => ({
  ...DARK_BOX,
  h: CHART_HEIGHT,
  data,
  dataKey,
  type: 'stacked' as const,
  series: [...series],
  withLegend: true,
  valueFormatter: formatValue,
  xAxisProps: { tickFormatter: (value: string | number) => formatCategory(String(value)) },
  tooltipProps: { labelFormatter: (label: unknown) => formatCategory(String(label)) },
});

/** Series stacked over categories as areas (active and idle time by hour of the day). */
export function StackedAreaChart(props: SeriesChartProps) {
  return <AreaChart {...stackedProps(props)} withDots={false} curveType="monotone" />;
}

/** Series stacked in one bar per category (each day's time per application). */
export function StackedBarsChart(props: SeriesChartProps) {
  return <BarChart {...stackedProps(props)} style={DARK_CURSOR} maxBarWidth={28} />;
}
