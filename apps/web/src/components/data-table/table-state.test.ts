import { describe, expect, it } from 'vitest';
import { clampPage, compareValues, nextSort, pageCount, sortRows } from './table-state';

describe('table state', () => {
  it('flips the direction on the same column and starts ascending on another', () => {
    expect(nextSort(null, 'name')).toEqual({ key: 'name', direction: 'asc' });
    expect(nextSort({ key: 'name', direction: 'asc' }, 'name')).toEqual({ key: 'name', direction: 'desc' });
    expect(nextSort({ key: 'name', direction: 'desc' }, 'age')).toEqual({ key: 'age', direction: 'asc' });
  });

  it('sorts numbers numerically, text naturally and empties last', () => {
    const rows = [{ v: 'item 10' }, { v: null }, { v: 'Item 9' }, { v: '' }, { v: 'item 1' }];
    expect(sortRows(rows, { key: 'v', direction: 'asc' }, (row) => row.v).map((row) => row.v)).toEqual([
      'item 1',
      'Item 9',
      'item 10',
      null,
      '',
    ]);
    expect(sortRows(rows, { key: 'v', direction: 'desc' }, (row) => row.v).map((row) => row.v)).toEqual([
      'item 10',
      'Item 9',
      'item 1',
      null,
      '',
    ]);
    expect(compareValues(2, 10, 'asc')).toBeLessThan(0);
  });

  it('keeps the page inside the list', () => {
    expect(pageCount(0, 10)).toBe(1);
    expect(pageCount(101, 10)).toBe(11);
    expect(clampPage(7, 25, 10)).toBe(3);
    expect(clampPage(0, 25, 10)).toBe(1);
  });
});
