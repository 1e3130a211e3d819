/**
 * The LIKE pattern of a list's search (a case-insensitive substring): the text lowered, its
 * wildcards and backslash escaped, between two `%`. Compare it with `lower(column) like pattern`,
 * which the areas' trigram indexes serve.
 */
export const likePattern = (search: string) => `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
