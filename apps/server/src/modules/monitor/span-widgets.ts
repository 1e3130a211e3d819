import type { WidgetHandlers } from './widget-input';

/**
 * The widgets read from the spans themselves and the schedules (docs/monitor.md, "The widgets"):
 * login hours, attendance, utilization, breaks, the action and application timelines, alerts.
 */
export const spanWidgets: WidgetHandlers = {};
