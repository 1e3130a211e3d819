import { Stack, Text, ThemeIcon } from '@mantine/core';
import type { WidgetKey } from '@opsdeck/contract/monitor';
import { IconChartDots } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { widgetTitle } from './widget-title';

/**
 * What a widget card shows inside. For now every widget says its data is not available yet: the
 * widget calls come in the next step, which replaces this one component with each widget's view.
 */
export function WidgetBody({ widgetKey }: { widgetKey: WidgetKey }) {
  const { t } = useTranslation();
  return (
    <Stack align="center" justify="center" gap={6} h="100%" py="lg" data-widget-body={widgetKey}>
      <ThemeIcon variant="light" color="gray" size="lg" radius="xl" aria-hidden>
        <IconChartDots size={20} />
      </ThemeIcon>
      <Text fw={600} size="sm">
        {t('monitor.widget.unavailable')}
      </Text>
      <Text c="dimmed" size="sm" ta="center">
        {t('monitor.widget.unavailableHint', { title: widgetTitle(t, widgetKey) })}
      </Text>
    </Stack>
  );
}
