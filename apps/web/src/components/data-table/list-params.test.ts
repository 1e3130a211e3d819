import { describe, expect, it } from 'vitest';
import { type ListDefaults, parseListParams, rangeOf, serializeListParams } from './list-params';

const defaults: ListDefaults = { sort: { key: 'name', direction: 'asc' }, sortKeys: ['name', 'email'] };
const parse = (query: string, given: ListDefaults = defaults) => parseListParams(new URLSearchParams(query), given);

describe('list params in the URL', () => {
  it('reads the defaults from an empty query', () => {
    expect(parse('')).toEqual({
      search: '',
      preset: 'all',
      custom: { from: null, to: null },
      sort: { key: 'name', direction: 'asc' },
      page: 1,
    });
    expect(parse('', { preset: 'today' }).preset).toBe('today');
  });

  it('reads search, range, sort and page', () => {
    expect(parse('q=+acme+&range=custom&from=1000&to=2000&sort=-email&page=3')).toEqual({
      search: 'acme',
      preset: 'custom',
      custom: { from: 1000, to: 2000 },
      sort: { key: 'email', direction: 'desc' },
      page: 3,
    });
  });

  it('falls back to the defaults on values it does not know', () => {
    const params = parse('range=fortnight&from=yesterday&sort=-password&page=-2');
    expect(params.preset).toBe('all');
    expect(params.custom).toEqual({ from: null, to: null });
    expect(params.sort).toEqual({ key: 'name', direction: 'asc' });
    expect(params.page).toBe(1);
    expect(parse('page=1.5').page).toBe(1);
    expect(parse('page=99999999999999999999').page).toBe(1);
  });

  it('writes only what differs from the defaults, and keeps the other keys', () => {
    const query = serializeListParams(
      {
        search: 'acme',
        preset: 'thisWeek',
        custom: { from: 5, to: 6 },
        sort: { key: 'name', direction: 'asc' },
        page: 1,
      },
      defaults,
      new URLSearchParams('tab=2&page=7'),
    );
    expect(query.toString()).toBe('tab=2&q=acme&range=thisWeek');
  });

  it('round-trips a whole state', () => {
    const state = {
      search: 'a b&c',
      preset: 'custom' as const,
      custom: { from: 1_700_000_000_000, to: null },
      sort: { key: 'email', direction: 'desc' as const },
      page: 4,
    };
    expect(parseListParams(serializeListParams(state, defaults), defaults)).toEqual(state);
  });

  it('resolves a preset at the time of the reading, and custom ends as given', () => {
    const now = new Date(2026, 2, 18, 14, 30).getTime();
    expect(rangeOf({ preset: 'today', custom: { from: null, to: null } }, now)).toEqual({
      from: new Date(2026, 2, 18).getTime(),
      to: new Date(2026, 2, 18, 23, 59, 59, 999).getTime(),
    });
    expect(rangeOf({ preset: 'custom', custom: { from: 1, to: 2 } }, now)).toEqual({ from: 1, to: 2 });
  });
});
