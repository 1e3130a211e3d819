import { Alert, Button, Group, Loader, Modal, SimpleGrid, Stack, Switch, Text } from '@mantine/core';
import type { WidgetKey } from '@opsdeck/contract/monitor';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { widgetCatalogueQueryOptions } from '../../resources/monitor';
import { hideWidget, isShown, type Layout, showWidget } from './layout';
import { widgetTitle } from './widget-title';

/**
 * Dashboard Settings (spec section 2): every widget of the catalogue as a switch, in four columns
 * (section 9). A switch turned on adds the widget at the end of the first column, off hides it;
 * each is a layout change like a drag, saved after the same delay.
 */
export function SettingsModal({
  opened,
  onClose,
  layout,
  onChange,
}: {
  opened: boolean;
  onClose: () => void;
  layout: Layout;
  onChange: (next: Layout) => void;
}) {
  const { t } = useTranslation();
  const catalogue = useQuery({ ...widgetCatalogueQueryOptions(), enabled: opened });
  const toggle = (key: WidgetKey, on: boolean) => onChange(on ? showWidget(layout, key) : hideWidget(layout, key));

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('monitor.settings.title')}
      size="xl"
      centered
      closeButtonProps={{ 'aria-label': t('modal.close') }}
    >
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {t('monitor.settings.intro')}
        </Text>
        {catalogue.isPending && <Loader size="sm" aria-label={t('monitor.grid.loading')} />}
        {catalogue.isError && <Alert color="red">{t('monitor.settings.loadFailed')}</Alert>}
        {catalogue.data && (
          <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="md" verticalSpacing="sm">
            {catalogue.data.map(({ widgetKey }) => (
              <Switch
                key={widgetKey}
                label={widgetTitle(t, widgetKey)}
                checked={isShown(layout, widgetKey)}
                onChange={(event) => toggle(widgetKey, event.currentTarget.checked)}
              />
            ))}
          </SimpleGrid>
        )}
        <Group justify="flex-end">
          <Button onClick={onClose}>{t('monitor.settings.done')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
