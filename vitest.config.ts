// Vitest: unit tests beside the code, integration tests in test/ (STYLE §7).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 90_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    // A worker runs its files one after another in one process and loads the source modules once: isolated, every
    // file paid ~2.5 s of module loading on the shared 2-core machine (20 light test/ files: 65 s → 30 s, 21 s of
    // it import). No test mocks modules or changes process.env; the few that chdir restore it in afterAll.
    isolate: false,
  },
});
