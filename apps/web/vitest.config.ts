import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'happy-dom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    restoreMocks: true,
    // A worker imports the console's modules (Mantine, the routes) once for all its files, not once
    // per file: two thirds of the suite's time went to importing them again (docs/performance.md,
    // "The test suite"). What a module keeps between tests is reset in src/test/setup.ts.
    isolate: false,
    unstubGlobals: true,
    // Tests that type into forms and load lazy routes run long when every file runs at once on two cores.
    testTimeout: 20_000,
    // Vitest's default is one worker fewer than the cores: one on two cores, where two finish sooner.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
