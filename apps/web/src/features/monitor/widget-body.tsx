import type { WidgetAnswer, WidgetKey } from '@opsdeck/contract/monitor';
import { useTranslation } from 'react-i18next';
import { widgetTitle } from './widget-title';
import { WIDGET_VIEWS } from './widgets/views';
import { useWidgetQuery } from './widgets/widget-query';
import { WidgetEmpty, WidgetError, WidgetLoading } from './widgets/widget-states';

/**
 * What a widget card shows inside: its answer for the page's filters (one call per widget,
 * `useWidgetQuery`), drawn by its view (`WIDGET_VIEWS`); while it loads a placeholder as tall as
 * the view, when it is empty what would fill it, and when the call failed the error and a retry.
 * `data-widget-state` tells the browser tests which of the four the card shows.
 */
export function WidgetBody<K extends WidgetKey>({ widgetKey }: { widgetKey: K }) {
  const { t } = useTranslation();
  const query = useWidgetQuery(widgetKey);
  const { View, isEmpty, height } = WIDGET_VIEWS[widgetKey];
  const title = widgetTitle(t, widgetKey);
  const data: WidgetAnswer<K> | undefined = query.data;

  const state = data !== undefined ? (isEmpty(data) ? 'empty' : 'data') : query.isError ? 'error' : 'loading';
  return (
    <div data-widget-body={widgetKey} data-widget-state={state}>
      {data !== undefined ? (
        isEmpty(data) ? (
          <WidgetEmpty widgetKey={widgetKey} height={height} />
        ) : (
          <View data={data} title={title} />
        )
      ) : query.isError ? (
        <WidgetError title={title} error={query.error} height={height} onRetry={() => void query.refetch()} />
      ) : (
        <WidgetLoading title={title} height={height} />
      )}
    </div>
  );
}
