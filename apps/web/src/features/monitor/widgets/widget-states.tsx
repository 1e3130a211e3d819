import { Alert, Box, Button, Center, Skeleton, Stack, Text, VisuallyHidden } from '@mantine/core';
import type { WidgetKey } from '@opsdeck/contract/monitor';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-client';
import { errorText } from '../../../lib/i18n';

/**
 * A widget's body before and instead of its data, each as tall as the data's view will be
 * (`height`), so the card keeps its size from the first paint to the answer.
 */

export function WidgetLoading({ title, height }: { title: string; height: number }) {
  const { t } = useTranslation();
  return (
    <Box aria-busy="true">
      <Skeleton h={height} radius="md" />
      <VisuallyHidden>{t('monitor.widget.loading', { title })}</VisuallyHidden>
    </Box>
  );
}

/** What fills the widget, said when its answer is empty. */
export function EmptyText({ widgetKey }: { widgetKey: WidgetKey }) {
  const { t } = useTranslation();
  return (
    <Text c="dimmed" size="sm" ta="center" maw={420} mx="auto" data-widget-empty>
      {t(`monitor.widget.empty.${widgetKey}`)}
    </Text>
  );
}

export function WidgetEmpty({ widgetKey, height }: { widgetKey: WidgetKey; height: number }) {
  return (
    <Center mih={height}>
      <EmptyText widgetKey={widgetKey} />
    </Center>
  );
}

/** A failed call: the error's text and a retry (the rest of the dashboard stays as it is). */
export function WidgetError({
  title,
  error,
  height,
  onRetry,
}: {
  title: string;
  error: unknown;
  height: number;
  onRetry: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Center mih={height}>
      <Alert color="red" title={t('monitor.widget.loadFailed', { title })} w="100%">
        <Stack gap="xs" align="flex-start">
          {errorText(isApiError(error) ? error.errorKey : 'ERROR_GENERAL_INTERNAL')}
          <Button size="compact-sm" variant="light" color="red" onClick={onRetry}>
            {t('monitor.widget.retry')}
          </Button>
        </Stack>
      </Alert>
    </Center>
  );
}
