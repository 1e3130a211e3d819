import { describe, expect, it } from 'vitest';
import { attachment } from './content-disposition';

describe('attachment (RFC 6266)', () => {
  it('quotes a plain ASCII name as it is', () => {
    expect(attachment('Invoice intake.rax')).toBe('attachment; filename="Invoice intake.rax"');
  });

  it('adds a UTF-8 filename* for a non-ASCII name, with an ASCII fallback', () => {
    expect(attachment('Fakturí (2).rax')).toBe(
      `attachment; filename="Faktur_ (2).rax"; filename*=UTF-8''Faktur%C3%AD%20%282%29.rax`,
    );
  });

  it('never lets a quote or a backslash end the quoted name', () => {
    const header = attachment('a"b\\c.zip');
    expect(header).toContain('filename="a_b_c.zip"');
    expect(decodeURIComponent(header.split("UTF-8''")[1]!)).toBe('a"b\\c.zip');
  });
});
