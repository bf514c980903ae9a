import { readFileSync } from 'node:fs';
import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter';

/** Enough of a page's accessibility tree to read what it showed, short enough for a CI log. */
const LIMIT = 8000;

/**
 * Prints what the page showed when a test failed (Playwright's `error-context` attachment: the page's
 * accessibility tree) into the run's output. CI keeps only that output, not `test-results/`, and "timed
 * out waiting for X" alone does not tell a slow page from an error message on it.
 */
export default class FailureContextReporter implements Reporter {
  onTestEnd(test: TestCase, result: TestResult): void {
    if (result.status === 'passed' || result.status === 'skipped') return;
    for (const attachment of result.attachments) {
      if (attachment.name !== 'error-context' || !attachment.path) continue;
      let text: string;
      try {
        text = readFileSync(attachment.path, 'utf8');
      } catch {
        continue;
      }
      // The error (with the snapshot its matcher took) and the page snapshot; not the file's instructions,
      // test info and source, which the list reporter's own lines already locate.
      text = sections(text, ['# Error details', '# Page snapshot']);
      const cut = text.length > LIMIT ? `${text.slice(0, LIMIT)}\n… (${text.length - LIMIT} more characters in ${attachment.path})` : text;
      process.stdout.write(`\n── what the page showed when "${test.title}" failed ──\n${cut}\n──\n`);
    }
  }

  printsToStdio(): boolean {
    return true;
  }
}

/** The `# Heading` sections of a markdown text whose headings are given, in their order. */
function sections(text: string, headings: string[]): string {
  const parts = text.split(/^(?=# )/m);
  return parts.filter((part) => headings.some((h) => part.startsWith(h))).join('');
}
