import { defineProject } from 'vitest/config';
import web, { FRESH_MODULE_TESTS } from './vitest.config';

/** The web tests that need their modules loaded anew for each file (see FRESH_MODULE_TESTS). */
export default defineProject({
  ...web,
  test: { ...web.test, name: 'web-fresh', isolate: true, include: FRESH_MODULE_TESTS, exclude: [] },
});
