import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['apps/server/vitest.config.ts', 'apps/web/vitest.config.ts', 'apps/web/vitest.fresh.config.ts'],
    // One file more than there are cores, not vitest's cores − 1: most server tests wait on sockets, the store
    // and timers. On a 2-core machine two files at once took the run from 980 s to 643 s, and three from 321 s
    // to 273 s (same commit, one after the other).
    maxWorkers: availableParallelism() + 1,
  },
});
