import { describe, expect, it } from 'vitest';
import { Throttle } from './throttle';

describe('Throttle', () => {
  it('refuses a key that used up its window until the window ends', () => {
    let now = 0;
    const throttle = new Throttle(3, 1_000, () => now);
    for (let i = 0; i < 3; i += 1) {
      expect(() => throttle.check('a')).not.toThrow();
      throttle.hit('a');
    }
    expect(() => throttle.check('a')).toThrow(
      expect.objectContaining({ statusCode: 429, key: 'ERROR_TOO_MANY_REQUESTS' }),
    );
    expect(() => throttle.check('b')).not.toThrow();
    now = 1_000;
    expect(() => throttle.check('a')).not.toThrow();
  });

  it('forgets a key on reset', () => {
    const throttle = new Throttle(1, 60_000);
    throttle.hit('a');
    expect(() => throttle.check('a')).toThrow();
    throttle.reset('a');
    expect(() => throttle.check('a')).not.toThrow();
  });
});
