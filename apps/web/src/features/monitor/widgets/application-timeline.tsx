import { Box, ColorSwatch, Group, getThemeColor, Text, useMantineTheme } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Column } from '../../../components/data-table/data-table';
import { CHART_HEIGHT, ChartFrame } from './chart-frame';
import { formatDuration, formatMoment } from './format';
import { OTHER_COLOR, SERIES_COLOR_COUNT, seriesColor, type ViewProps } from './view';

interface SpanRow {
  id: string;
  name: string;
  application: string;
  start: number;
  end: number;
}

const NAME_WIDTH = 110;

/**
 * A strip per person (at most 20), each foreground application a bar along the time the answer
 * covers, coloured by application (the eight with the most time; the rest share Other's grey),
 * with a legend. Plain boxes: no chart library for a handful of bars per row.
 */
export function ApplicationTimelineView({ data, title }: ViewProps<'application_timeline'>) {
  const { t } = useTranslation();
  const theme = useMantineTheme();
  const rows: SpanRow[] = data.flatMap((person) =>
    person.spans.map((span, index) => ({ id: `${person.userId}-${index}`, name: person.name, ...span })),
  );
  const totals = new Map<string, number>();
  for (const row of rows) totals.set(row.application, (totals.get(row.application) ?? 0) + row.end - row.start);
  const ranked = [...totals.keys()].sort((a, b) => (totals.get(b) ?? 0) - (totals.get(a) ?? 0));
  const coloured = ranked.slice(0, SERIES_COLOR_COUNT);
  const colorOf = (application: string) => {
    const index = coloured.indexOf(application);
    return getThemeColor(index < 0 ? OTHER_COLOR : seriesColor(index), theme);
  };
  const first = Math.min(...rows.map((row) => row.start));
  const last = Math.max(...rows.map((row) => row.end));
  const length = Math.max(last - first, 1);

  const columns: Column<SpanRow>[] = [
    { key: 'name', header: t('monitor.widget.columns.person'), value: (row) => row.name },
    { key: 'application', header: t('monitor.widget.columns.application'), value: (row) => row.application },
    {
      key: 'start',
      header: t('monitor.widget.columns.start'),
      value: (row) => row.start,
      render: (row) => formatMoment(row.start),
    },
    {
      key: 'end',
      header: t('monitor.widget.columns.end'),
      value: (row) => row.end,
      render: (row) => formatMoment(row.end),
    },
    {
      key: 'time',
      header: t('monitor.widget.columns.time'),
      value: (row) => row.end - row.start,
      render: (row) => formatDuration(row.end - row.start),
      align: 'right',
    },
  ];

  const timeline = (
    <Box h={CHART_HEIGHT} style={{ display: 'flex', flexDirection: 'column', gap: 6, overflow: 'hidden' }}>
      <Group gap="xs" wrap="wrap">
        {coloured.map((application) => (
          <Group key={application} gap={4} wrap="nowrap">
            <ColorSwatch color={colorOf(application)} size={10} />
            <Text size="xs" c="gray.3">
              {application}
            </Text>
          </Group>
        ))}
        {ranked.length > coloured.length && (
          <Group gap={4} wrap="nowrap">
            <ColorSwatch color={getThemeColor(OTHER_COLOR, theme)} size={10} />
            <Text size="xs" c="gray.3">
              {t('monitor.widget.other')}
            </Text>
          </Group>
        )}
      </Group>
      {/* The strips share what the legend leaves, up to 24 px each: 20 people fit without scrolling. */}
      <Box style={{ flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column', gap: 2 }}>
        {data.map((person) => (
          <Group key={person.userId} gap={6} wrap="nowrap" mah={24} style={{ flex: 1, minHeight: 0 }}>
            <Text w={NAME_WIDTH} fz={11} lh={1} c="gray.3" truncate="end" style={{ flexShrink: 0 }}>
              {person.name}
            </Text>
            <Box h="100%" bg="dark.5" style={{ flex: 1, position: 'relative', borderRadius: 2 }}>
              {person.spans.map((span) => (
                <Box
                  key={`${span.start}-${span.application}`}
                  title={`${span.application}: ${formatMoment(span.start)} – ${formatMoment(span.end)}`}
                  style={{
                    position: 'absolute',
                    top: 0,
                    bottom: 0,
                    left: `${((span.start - first) / length) * 100}%`,
                    width: `max(1px, ${((span.end - span.start) / length) * 100}%)`,
                    background: colorOf(span.application),
                  }}
                />
              ))}
            </Box>
          </Group>
        ))}
      </Box>
      <Group justify="space-between" pl={NAME_WIDTH + 6}>
        <Text size="xs" c="gray.3">
          {formatMoment(first)}
        </Text>
        <Text size="xs" c="gray.3">
          {formatMoment(last)}
        </Text>
      </Group>
    </Box>
  );

  return <ChartFrame title={title} chart={timeline} table={{ columns, rows, rowKey: (row) => row.id }} />;
}
