import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // Migrates one database before the files start; each file's database is a copy of it.
    globalSetup: ['./test/global-setup.ts'],
    // Each file boots its own server on its own database; two cores run two at once.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
