import { describe, expect, it } from 'vitest';
import { formatBytes } from './file-size';

describe('formatBytes', () => {
  it('shows bytes, then one decimal of the largest unit, and a dash for none', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(2048)).toBe('2.0 KB');
    expect(formatBytes(5 * 1024 * 1024 + 300_000)).toBe('5.3 MB');
    expect(formatBytes(null)).toBe('-');
    expect(formatBytes(-1)).toBe('-');
  });
});
