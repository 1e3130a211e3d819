import type { VisibleWidget } from '@opsdeck/contract/monitor';
import { describe, expect, it } from 'vitest';
import {
  dragTo,
  hideWidget,
  type Layout,
  layoutFromWidgets,
  layoutToBody,
  moveWidget,
  sameLayout,
  showWidget,
} from './layout';

const widget = (widgetKey: VisibleWidget['widgetKey'], widgetOrder: number, widgetColumnNumber = 1): VisibleWidget => ({
  widgetKey,
  widgetTitle: widgetKey,
  widgetOrder,
  widgetColumnNumber,
});

const base: Layout = { 1: ['active_users', 'hourly_activity', 'top_statuses'], 2: ['top_applications', 'alerts'] };

describe('layoutFromWidgets', () => {
  it('puts the visible widgets in their columns by order and leaves the hidden out', () => {
    expect(
      layoutFromWidgets([
        widget('alerts', 6, 2),
        widget('active_users', 1, 1),
        widget('top_tasks', 0, 1),
        widget('top_applications', 3, 2),
        widget('hourly_activity', 2, 1),
      ]),
    ).toEqual({ 1: ['active_users', 'hourly_activity'], 2: ['top_applications', 'alerts'] });
  });
});

describe('layoutToBody', () => {
  it('lists every visible widget in reading order, row by row, and adds nothing', () => {
    expect(layoutToBody(base)).toEqual({
      toAdd: [],
      currentVisibleWidgets: [
        { widgetKey: 'active_users', widgetOrder: 1, widgetColumnNumber: 1 },
        { widgetKey: 'top_applications', widgetOrder: 2, widgetColumnNumber: 2 },
        { widgetKey: 'hourly_activity', widgetOrder: 3, widgetColumnNumber: 1 },
        { widgetKey: 'alerts', widgetOrder: 4, widgetColumnNumber: 2 },
        { widgetKey: 'top_statuses', widgetOrder: 5, widgetColumnNumber: 1 },
      ],
    });
  });

  it('reads back as the same layout', () => {
    const body = layoutToBody(base).currentVisibleWidgets.map((placed) => ({
      ...placed,
      widgetTitle: '',
    })) as VisibleWidget[];
    expect(layoutFromWidgets(body)).toEqual(base);
  });

  it('sends an empty list for an empty dashboard', () => {
    expect(layoutToBody({ 1: [], 2: [] })).toEqual({ toAdd: [], currentVisibleWidgets: [] });
  });
});

describe('hide and show', () => {
  it('hides a widget from its column', () => {
    expect(hideWidget(base, 'alerts')).toEqual({ 1: base[1], 2: ['top_applications'] });
  });

  it('shows a hidden widget at the end of column 1, as the server adds one', () => {
    expect(showWidget(base, 'top_tasks')[1]).toEqual([...base[1], 'top_tasks']);
  });

  it('leaves a shown widget where it is, and a hidden one hidden', () => {
    expect(showWidget(base, 'alerts')).toBe(base);
    expect(hideWidget(base, 'top_tasks')).toBe(base);
  });
});

describe('moveWidget', () => {
  it('moves within a column and across, clamping the place', () => {
    expect(moveWidget(base, 'top_statuses', 1, 0)[1]).toEqual(['top_statuses', 'active_users', 'hourly_activity']);
    expect(moveWidget(base, 'active_users', 2, 99)).toEqual({
      1: ['hourly_activity', 'top_statuses'],
      2: ['top_applications', 'alerts', 'active_users'],
    });
  });
});

describe('dragTo', () => {
  it('takes the place of the widget it is dropped on, down and up a column', () => {
    expect(dragTo(base, 'active_users', 'top_statuses')[1]).toEqual([
      'hourly_activity',
      'top_statuses',
      'active_users',
    ]);
    expect(dragTo(base, 'top_statuses', 'active_users')[1]).toEqual([
      'top_statuses',
      'active_users',
      'hourly_activity',
    ]);
  });

  it('goes before the widget of the other column it is over', () => {
    expect(dragTo(base, 'hourly_activity', 'alerts')).toEqual({
      1: ['active_users', 'top_statuses'],
      2: ['top_applications', 'hourly_activity', 'alerts'],
    });
  });

  it('goes to the end of an (empty) column it is over', () => {
    const oneColumn: Layout = { 1: ['alerts', 'top_tasks'], 2: [] };
    expect(dragTo(oneColumn, 'alerts', 'column-2')).toEqual({ 1: ['top_tasks'], 2: ['alerts'] });
  });

  it('changes nothing over itself, over nothing or over its own column', () => {
    expect(dragTo(base, 'alerts', 'alerts')).toBe(base);
    expect(dragTo(base, 'alerts', null)).toBe(base);
    expect(dragTo(base, 'alerts', 'column-2')).toBe(base);
  });
});

describe('sameLayout', () => {
  it('compares columns and order', () => {
    expect(sameLayout(base, { 1: [...base[1]], 2: [...base[2]] })).toBe(true);
    expect(sameLayout(base, moveWidget(base, 'alerts', 2, 0))).toBe(false);
    expect(sameLayout(base, moveWidget(base, 'alerts', 1, 99))).toBe(false);
  });
});
