import { describe, expect, it } from 'vitest';
import { clickSelection, contextSelection, NO_SELECTION, toggleSelection } from './row-selection';

const order = ['a', 'b', 'c', 'd', 'e'];
const plain = { toggle: false, range: false };

describe('row selection', () => {
  it('selects one row on a click, and toggles one with ctrl, which becomes the anchor', () => {
    const one = clickSelection(NO_SELECTION, 'b', order, plain);
    expect(one).toEqual({ ids: ['b'], anchor: 'b' });
    const two = clickSelection(one, 'd', order, { toggle: true, range: false });
    expect(two).toEqual({ ids: ['b', 'd'], anchor: 'd' });
    expect(toggleSelection(two, 'b')).toEqual({ ids: ['d'], anchor: 'b' });
  });

  it('selects the range from the anchor with shift, in either direction, keeping the anchor', () => {
    const anchored = { ids: ['d'], anchor: 'd' };
    expect(clickSelection(anchored, 'b', order, { toggle: false, range: true })).toEqual({
      ids: ['b', 'c', 'd'],
      anchor: 'd',
    });
    expect(clickSelection(anchored, 'e', order, { toggle: false, range: true }).ids).toEqual(['d', 'e']);
    // Ctrl+Shift adds the range to the selection.
    expect(clickSelection({ ids: ['a', 'd'], anchor: 'd' }, 'e', order, { toggle: true, range: true }).ids).toEqual([
      'a',
      'd',
      'e',
    ]);
    // With no anchor on the page (another page, a reload), shift selects the row alone.
    expect(clickSelection({ ids: [], anchor: 'z' }, 'c', order, { toggle: false, range: true }).ids).toEqual(['c']);
  });

  it('keeps the selection for a right-click on a selected row, else selects that row alone', () => {
    const selection = { ids: ['a', 'c'], anchor: 'c' };
    expect(contextSelection(selection, 'a')).toBe(selection);
    expect(contextSelection(selection, 'b')).toEqual({ ids: ['b'], anchor: 'b' });
  });
});
