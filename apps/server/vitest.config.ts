import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // Migrates one database before the files start; each file's database is a copy of it.
    globalSetup: ['./test/global-setup.ts'],
    // Each file boots its own server on its own database; two cores run two at once.
    pool: 'forks',
    maxWorkers: 2,
    // A worker imports the app once for all its files, not once per file (half the suite's CPU
    // time went to importing it again): every file builds its own app, database and data
    // directory, so nothing a file needs lives in a module's state.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
