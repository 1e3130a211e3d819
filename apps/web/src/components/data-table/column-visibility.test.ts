import { describe, expect, it } from 'vitest';
import { parseHiddenColumns } from './column-visibility';

describe('stored column visibility', () => {
  it('reads the hidden keys, and nothing from a missing or malformed value', () => {
    expect(parseHiddenColumns('["size","description"]')).toEqual(['size', 'description']);
    expect(parseHiddenColumns('["size",3,null]')).toEqual(['size']);
    expect(parseHiddenColumns('{"size":true}')).toEqual([]);
    expect(parseHiddenColumns('not json')).toEqual([]);
    expect(parseHiddenColumns(undefined)).toEqual([]);
  });
});
