import { WIDGET_TITLES, type WidgetKey } from '@opsdeck/contract/monitor';
import type { TFunction } from 'i18next';

/** A widget's title in the console's language (the catalogue's English one as the fallback). */
export const widgetTitle = (t: TFunction, key: WidgetKey) => t(`monitor.widgets.${key}`, WIDGET_TITLES[key]);
