import react from '@vitejs/plugin-react';
import { articlePlugin } from './article-plugin.js';
import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

/**
 * Files that test what a module does the first time it is loaded (which language packs are in before any
 * is chosen): they run in `web-fresh` (vitest.fresh.config.ts), each with its own modules. In the shared
 * worker an earlier file had loaded the other packs already.
 */
export const FRESH_MODULE_TESTS = ['src/lib/i18n.test.tsx'];

export default defineProject({
  plugins: [react(), articlePlugin()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  test: {
    name: 'web',
    root: import.meta.dirname,
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    exclude: FRESH_MODULE_TESTS,
    setupFiles: ['src/test/setup.ts'],
    // A worker loads React, antd and the console's modules once for all its files instead of once per file
    // (they took ~5 s of every file's ~6). What a file changes is undone after it: mocks and stubbed globals
    // here, storage and the rendered tree in setup.ts. A test of first-load behaviour goes in FRESH_MODULE_TESTS.
    isolate: false,
    restoreMocks: true,
    unstubGlobals: true,
    unstubEnvs: true,
    // Budgets, not waits: a test passes the moment its expectations hold. vitest's 5 s ran out for page tests
    // on a loaded 2-core machine (a first render of a page with antd's tables takes seconds there).
    testTimeout: 20_000,
  },
});
