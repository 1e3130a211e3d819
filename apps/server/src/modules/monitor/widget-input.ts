import type { WidgetAnswer, WidgetKey } from '@opsdeck/contract/monitor';
import type { Executor } from '../../db/client';
import type { TenantScope } from '../../platform/tenancy';

/**
 * What every widget of the monitor dashboard is computed from (docs/monitor.md, "The widgets"):
 * the request's tenant scope, the people of its filters, the range and the zone, resolved once by
 * the route before any widget runs.
 */
export type WidgetInput = {
  db: Executor;
  /** The caller's scope: one company, or every company for an admin without X-Tenant-Id. */
  scope: TenantScope;
  /**
   * The people the filters (`user`, `department` with the ones below it, `role`) leave, as user
   * ids of the scope; null when no filter is set: the whole company, read from the company's
   * rollup rows (person 0), keys without a person included.
   */
  people: readonly number[] | null;
  /** Epoch ms, both included (the query's `from` and `to`). */
  from: number;
  to: number;
  /** The IANA zone days and hours are counted in. */
  tz: string;
  /** The time open spans count up to. */
  now: number;
};

/** A widget: its answer, shaped as the contract's `WIDGET_ANSWERS[key]`. */
export type WidgetHandler<K extends WidgetKey> = (input: WidgetInput) => Promise<WidgetAnswer<K>>;

export type WidgetHandlers = { [K in WidgetKey]?: WidgetHandler<K> };

/** The index of the day (of a zone's consecutive days) holding `at`, by bisection; clamped to the first and last. */
export function dayIndexOf(days: readonly { start: number }[]): (at: number) => number {
  return (at) => {
    let low = 0;
    let high = days.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (days[mid]!.start <= at) low = mid;
      else high = mid - 1;
    }
    return low;
  };
}
