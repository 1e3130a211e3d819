/**
 * The LIKE pattern of a list's search (a case-insensitive substring): the text lowered, its
 * wildcards and backslash escaped, between two `%`. Compare it with `lower(column) like pattern`,
 * which the areas' trigram indexes serve.
 */
export const likePattern = (search: string) => containsPattern(search.toLowerCase());

/**
 * A page's rows in the order of its ids: the page query sorts and picks the ids, a second query
 * reads their rows in any order. An id whose row went meanwhile is left out.
 */
export function inIdOrder<Row extends { id: number }>(ids: readonly number[], rows: readonly Row[]): Row[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id)).filter((row): row is Row => row !== undefined);
}

/** The LIKE pattern of `text` as a substring, case kept (upper-case columns such as MAC addresses). */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
