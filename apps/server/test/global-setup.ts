import type { TestProject } from 'vitest/node';
import { TEST_DATABASE_URL, prepareStoreTemplates } from './store-templates';

/** Once per run, before the workers start: the migrated template stores every test app copies. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { release, ...templates } = await prepareStoreTemplates(TEST_DATABASE_URL);
  project.provide('storeTemplates', templates);
  return release;
}
