import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';

/**
 * Deep pages that do not cost what they skip (docs/performance.md, "Lists at 500 requests a
 * second"). A page at offset 49,990 of a list sorted by a key read with `OFFSET` walks and throws
 * away 49,990 rows on every request. Instead the list remembers an anchor every `ANCHOR_SPACING`
 * rows of an order, the sort key and id of that row, in a `ListCache` evicted by the same events as
 * its count; a deep page then seeks the index past the nearest anchor before it (`(key, id) >
 * (anchor key, anchor id)`) and skips fewer than `ANCHOR_SPACING` rows from there.
 *
 * The anchors of an order are read once, by one walk of the rows in that order (a window function
 * numbering them), when a page past the first anchor is first asked for; page 1 never needs them.
 * Only orders whose key is never null and whose ties are broken by the id in the same direction
 * are anchored: the keyset comparison is then one row comparison an index serves.
 */
export type Anchor = { readonly key: string | number | boolean; readonly id: number };

/** Rows between two anchors: a deep page skips fewer than this many. */
export const ANCHOR_SPACING = 1000;

/**
 * The query of an order's anchors: `rows` selects the list's rows as `sort_key` and `id` (with the
 * list's WHERE, unordered); the answer is every `spacing`-th row of them in `direction`, as `key`
 * and `id`, in that order.
 */
export function anchorsQuery(rows: SQL, direction: 'asc' | 'desc', spacing = ANCHOR_SPACING): SQL {
  const order = sql.raw(direction);
  return sql`select sort_key as "key", id from (
      select sort_key, id, row_number() over (order by sort_key ${order}, id ${order}) as position
      from (${rows}) as listed
    ) as numbered
    where position % ${spacing} = 0
    order by position`;
}

/**
 * Where the page starting at `offset` (0-based) begins: after the last anchor at or before it
 * (none for the first `spacing` rows), skipping what remains. `anchors[i]` is the row numbered
 * `(i + 1) * spacing` (1-based), so the rows after it start at that offset.
 */
export function seekFrom(
  anchors: readonly Anchor[],
  offset: number,
  spacing = ANCHOR_SPACING,
): { after: Anchor | undefined; skip: number } {
  const index = Math.min(Math.floor(offset / spacing), anchors.length) - 1;
  if (index < 0) return { after: undefined, skip: offset };
  return { after: anchors[index], skip: offset - (index + 1) * spacing };
}

/** The condition of the rows after `after` in `direction`: `(key, id) > (…)`, or `<` descending. */
export function pastAnchor(key: SQLWrapper, id: SQLWrapper, after: Anchor, direction: 'asc' | 'desc'): SQL {
  return direction === 'asc'
    ? sql`(${key}, ${id}) > (${after.key}, ${after.id})`
    : sql`(${key}, ${id}) < (${after.key}, ${after.id})`;
}
