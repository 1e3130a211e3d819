import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { useEffect } from 'react';
import { useActiveTooltipLabel, useIsTooltipActive } from 'recharts';

export interface ChartDay {
  /** 'YYYY-MM-DD', the category of the bar. */
  date: string;
  minutes: number;
}

/** Inside the chart: tells the page which day the tooltip shows (pointer or arrow keys), for its live readout. */
function ActiveDay({ onChange }: { onChange: (date: string | null) => void }) {
  const active = useIsTooltipActive();
  const label = useActiveTooltipLabel();
  const date = active && label !== undefined && label !== null ? String(label) : null;
  useEffect(() => onChange(date), [date, onChange]);
  return null;
}

interface ExecutedTimeChartProps {
  days: readonly ChartDay[];
  /** The chart's accessible name and description (its <title> and <desc>). */
  title: string;
  description: string;
  seriesLabel: string;
  /** 'min', after each value of the tooltip. */
  unit: string;
  formatDay: (date: string) => string;
  onActiveDay: (date: string | null) => void;
}

/**
 * The agent report's column chart (spec sections 2 and 9: minutes per day, 300 px, dark), in its
 * own chunk with recharts, loaded after the page. recharts' accessibility layer makes the chart one
 * Tab stop whose left and right arrow keys move the tooltip from day to day.
 */
export function ExecutedTimeChart({
  days,
  title,
  description,
  seriesLabel,
  unit,
  formatDay,
  onActiveDay,
}: ExecutedTimeChartProps) {
  return (
    <BarChart
      h={300}
      data={[...days]}
      dataKey="date"
      series={[{ name: 'minutes', label: seriesLabel, color: 'indigo.4' }]}
      textColor="gray.3"
      gridColor="dark.4"
      cursorFill="dark.5"
      valueFormatter={(value) => `${value.toFixed(1)} ${unit}`}
      xAxisProps={{ tickFormatter: (date: string) => String(Number(String(date).slice(8))) }}
      yAxisProps={{ tickFormatter: (value: number) => String(Math.round(value * 10) / 10), width: 44 }}
      yAxisLabel={seriesLabel}
      tooltipProps={{ labelFormatter: (label) => formatDay(String(label)) }}
      barChartProps={{ title, desc: description }}
      maxBarWidth={28}
    >
      <ActiveDay onChange={onActiveDay} />
    </BarChart>
  );
}
