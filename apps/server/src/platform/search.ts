/**
 * The LIKE pattern of a list's search (a case-insensitive substring): the text lowered, its
 * wildcards and backslash escaped, between two `%`. Compare it with `lower(column) like pattern`,
 * which the areas' trigram indexes serve.
 */
export const likePattern = (search: string) => containsPattern(search.toLowerCase());

/** The LIKE pattern of `text` as a substring, case kept (upper-case columns such as MAC addresses). */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
