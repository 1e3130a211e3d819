import { describe, expect, it } from 'vitest';
import { ordinal } from './ordinal';

describe('ordinal', () => {
  it.each([
    [0, '0th'],
    [1, '1st'],
    [2, '2nd'],
    [3, '3rd'],
    [4, '4th'],
    [9, '9th'],
    [10, '10th'],
    [11, '11th'],
    [12, '12th'],
    [13, '13th'],
    [14, '14th'],
    [21, '21st'],
    [22, '22nd'],
    [23, '23rd'],
    [101, '101st'],
    [111, '111th'],
    [112, '112th'],
    [1003, '1003rd'],
  ])('writes %i as %s', (position, expected) => {
    expect(ordinal(position)).toBe(expected);
  });
});
