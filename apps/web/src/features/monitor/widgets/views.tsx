import type { WidgetAnswer, WidgetKey } from '@opsdeck/contract/monitor';
import type { ComponentType } from 'react';
import { ActiveUsersView } from './active-users';
import { ApplicationDurationView } from './application-duration';
import { ApplicationTimelineView } from './application-timeline';
import { CHART_FRAME_HEIGHT } from './chart-frame';
import { ActionTimelineView, AlertsView } from './event-list';
import { HourlyActivityView } from './hourly-activity';
import {
  AttendanceView,
  BreakAdherenceView,
  EmployeeLoginHoursView,
  EmployeeUtilizationView,
  StatusSummaryView,
  TaskProductivityView,
} from './tables';
import { ApplicationFrequencyView, TopApplicationsView, TopStatusesView, TopTasksView } from './top-list';
import type { ViewProps } from './view';

/** The body of a card at least, inside WIDGET_MIN_HEIGHT: the tables' and the figures' loading height. */
const TABLE_HEIGHT = 190;
const FIGURES_HEIGHT = 110;

interface WidgetView<K extends WidgetKey> {
  View: ComponentType<ViewProps<K>>;
  /** An answer with nothing to show: the card says what would fill it instead. */
  isEmpty: (data: WidgetAnswer<K>) => boolean;
  /** How tall the view is while it loads (and when empty or failed), so that the card does not jump. */
  height: number;
}

const noRows = (data: readonly unknown[]) => data.length === 0;

/** Each widget's view, by key: the one place that says how a widget's answer is drawn. */
export const WIDGET_VIEWS: { [K in WidgetKey]: WidgetView<K> } = {
  active_users: { View: ActiveUsersView, isEmpty: () => false, height: FIGURES_HEIGHT },
  hourly_activity: {
    View: HourlyActivityView,
    // Always 24 hours: empty when every one is nothing.
    isEmpty: (data) => data.every((hour) => hour.activeMs === 0 && hour.idleMs === 0),
    height: CHART_FRAME_HEIGHT,
  },
  top_applications: { View: TopApplicationsView, isEmpty: noRows, height: CHART_FRAME_HEIGHT },
  application_frequency: { View: ApplicationFrequencyView, isEmpty: noRows, height: CHART_FRAME_HEIGHT },
  top_statuses: { View: TopStatusesView, isEmpty: noRows, height: CHART_FRAME_HEIGHT },
  top_tasks: { View: TopTasksView, isEmpty: noRows, height: CHART_FRAME_HEIGHT },
  application_duration: {
    View: ApplicationDurationView,
    // Every day and application, zeros included.
    isEmpty: (data) => data.every((entry) => entry.durationMs === 0),
    height: CHART_FRAME_HEIGHT,
  },
  application_timeline: {
    View: ApplicationTimelineView,
    isEmpty: (data) => data.every((person) => person.spans.length === 0),
    height: CHART_FRAME_HEIGHT,
  },
  employee_login_hours: { View: EmployeeLoginHoursView, isEmpty: noRows, height: TABLE_HEIGHT },
  attendance_and_tardiness: { View: AttendanceView, isEmpty: noRows, height: TABLE_HEIGHT },
  employee_utilization: { View: EmployeeUtilizationView, isEmpty: noRows, height: TABLE_HEIGHT },
  break_adherence: { View: BreakAdherenceView, isEmpty: noRows, height: TABLE_HEIGHT },
  task_productivity: { View: TaskProductivityView, isEmpty: noRows, height: TABLE_HEIGHT },
  status_summary: { View: StatusSummaryView, isEmpty: noRows, height: TABLE_HEIGHT },
  action_timeline: { View: ActionTimelineView, isEmpty: noRows, height: TABLE_HEIGHT },
  alerts: { View: AlertsView, isEmpty: noRows, height: TABLE_HEIGHT },
};
