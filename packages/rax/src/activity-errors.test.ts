import { describe, expect, it } from 'vitest';
import { errorMessageFor, errorsFor } from './activity-errors';

describe('error messages', () => {
  it('fit the activity: its own, then its family by the words of its key, then a default', () => {
    expect(errorsFor('click-element')).toContain('Element #submit not found after 30 s');
    expect(errorsFor('sap-logon')).toContain('Session timed out');
    expect(errorMessageFor('ocr-document', () => 0)).toBe('Confidence 0.41 below the threshold 0.80');
    expect(errorMessageFor('export-to-excel', () => 0)).toBe('The file is locked by another user');
    expect(errorMessageFor('sap-release-order', () => 0)).toBe('Session timed out');
    expect(errorMessageFor('custom-thing', () => 0)).toBe('The activity timed out');
    expect(errorMessageFor('custom-thing', () => 0.9999)).toBe('Object reference not set to an instance of an object');
  });
});
