import { describe, expect, it } from 'vitest';
import { crumbsOfPath, pathOf, queryOfPath } from './directory-path';

describe('directory path in the URL', () => {
  it('reads the path, the root without one, and tidies empty levels', () => {
    expect(pathOf(new URLSearchParams(''))).toBe('Workflows');
    expect(pathOf(new URLSearchParams('path=Workflows%2FFinance%2F%2FQ1%2F'))).toBe('Workflows/Finance/Q1');
  });

  it("drops the search, range and page for another directory, and keeps the sort and the page's other keys", () => {
    const query = new URLSearchParams('path=Workflows%2FA&q=x&range=custom&from=1&to=2&page=3&sort=-size&tab=1');
    expect(queryOfPath('Workflows/A/B', query).toString()).toBe('path=Workflows%2FA%2FB&sort=-size&tab=1');
    expect(queryOfPath('Workflows', query).toString()).toBe('sort=-size&tab=1');
  });

  it('makes a crumb of each level, leading back to it', () => {
    expect(crumbsOfPath('Workflows/Finance/Q1')).toEqual([
      { path: 'Workflows', label: 'Workflows' },
      { path: 'Workflows/Finance', label: 'Finance' },
      { path: 'Workflows/Finance/Q1', label: 'Q1' },
    ]);
  });
});
