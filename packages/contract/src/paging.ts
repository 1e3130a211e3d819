import { z } from 'zod';
import { ID_MAX } from './fields';
import { LIMITS } from './limits';

/**
 * Optional paging of a list call. The spec's calls answer plain arrays; when a client sends
 * `page`, the server pages, sorts and searches instead and answers a `Page` (issue 3: a company
 * of 100,000 users stays quick). `sort` is `field` or `field,asc|desc`.
 */
export const PageQuery = z.object({
  page: z.coerce.number().int().min(1).max(ID_MAX).optional(),
  size: z.coerce.number().int().min(1).max(100).default(LIMITS.pageSize),
  sort: z
    .string()
    .regex(/^[A-Za-z]+(,(asc|desc))?$/)
    .optional(),
  search: z.string().trim().max(LIMITS.nameMax).optional(),
});
export type PageQuery = z.infer<typeof PageQuery>;

/**
 * What a table's list call answers in: JSON, or with `format=csv` every row its filter and sort
 * match, all pages, as an RFC 4180 CSV download (docs/csv-export.md).
 */
export const ListFormat = z.enum(['json', 'csv'], { error: 'ERROR_GENERAL_INVALID_INPUT' });
export type ListFormat = z.infer<typeof ListFormat>;
/** The `format` field of a list query that offers CSV (JSON when left out); spread into its object. */
export const listFormat = { format: ListFormat.optional() };
/** The query of a list call that takes nothing but `format`. */
export const ListFormatQuery = z.object(listFormat);
export type ListFormatQuery = z.infer<typeof ListFormatQuery>;

const invalidInput = 'ERROR_GENERAL_INVALID_INPUT';
const wholeNumber = (min: number, max: number) =>
  z.coerce.number({ error: invalidInput }).int(invalidInput).min(min, invalidInput).max(max, invalidInput);

/**
 * `page` (from 1) and `size` (1–100, 10 by default) of a call that always pages, each refused with
 * ERROR_GENERAL_INVALID_INPUT when it is not such a number; spread into the query's object.
 */
export const pageNumbers = {
  page: wholeNumber(1, ID_MAX).default(1),
  size: wholeNumber(1, 100).default(LIMITS.pageSize),
};

export function parseSort(sort: string | undefined): { field: string; direction: 'asc' | 'desc' } | null {
  if (!sort) return null;
  const [field, direction] = sort.split(',');
  return { field: field!, direction: direction === 'desc' ? 'desc' : 'asc' };
}

export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    total: z.number().int(),
    /** Set when `total` is a floor: more rows match than the server counted (a search of the reports). */
    totalCapped: z.literal(true).optional(),
    page: z.number().int(),
    size: z.number().int(),
  });
export type Page<T> = { items: T[]; total: number; totalCapped?: true; page: number; size: number };
