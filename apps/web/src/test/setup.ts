import { notifications } from '@mantine/notifications';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';
import { loadAreaStrings } from '../lib/i18n';
import { reloadSessionFromStorage } from '../lib/session';

// The first visit of a lazy route compiles its chunk, which takes more than the default second on a
// busy machine.
configure({ asyncUtilTimeout: 5000 });

// The console loads the areas' strings with its shell; a component rendered alone needs them too.
await loadAreaStrings();

beforeEach(() => {
  window.localStorage.clear();
  reloadSessionFromStorage();
});

// The files of a worker share their modules (vitest.config.ts, isolate: false): whatever a module keeps
// (Mantine's toast store) is emptied after each test, as the DOM is.
afterEach(() => {
  cleanup();
  notifications.clean();
});
