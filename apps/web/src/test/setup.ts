import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';
import { reloadSessionFromStorage } from '../lib/session';

// The first visit of a lazy route compiles its chunk, which takes more than the default second on a
// busy machine.
configure({ asyncUtilTimeout: 5000 });

beforeEach(() => {
  window.localStorage.clear();
  reloadSessionFromStorage();
});

afterEach(() => {
  cleanup();
});
