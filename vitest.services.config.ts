import { defineConfig } from 'vitest/config';

/**
 * Integration tests against the real ejabberd, Kamailio and rtpengine: started once for the whole
 * run by the project's own service scripts (tests/services/global-setup.ts), stopped by PID after.
 */
export default defineConfig({
  test: {
    include: ['tests/services/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['tests/services/global-setup.ts'],
    // One set of servers: test files take turns rather than racing for the same accounts.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
