import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Where measured figures land: `artifacts/security/` at the repository root (git-ignored). */
export const FIGURES_DIR = path.resolve(import.meta.dirname, '../../../artifacts/security');

export interface SecurityFigure {
  /** Stable file name, e.g. `gateway-slowloris` (one figure per id; a rerun overwrites it). */
  id: string;
  /** The threat, as the table in docs/security.md names it. */
  threat: string;
  /** Where the test lives and what it is called, so a reader can rerun it. */
  test: string;
  /** What was measured, in words and numbers (e.g. "2,000 partial heads held, 0 left after 10.4 s"). */
  figure: string;
}

/**
 * Tests that measure a threat write their figure here as they run; `npm run security:figures` reruns
 * them and writes the table in docs/security.md from these files, so the published numbers are the
 * suite's own. Assertions stay in the tests: a figure is a record, not a check.
 */
export function recordFigure(f: SecurityFigure): void {
  mkdirSync(FIGURES_DIR, { recursive: true });
  writeFileSync(path.join(FIGURES_DIR, `${f.id}.json`), JSON.stringify({ ...f, measuredAt: new Date().toISOString() }, null, 2) + '\n');
}
