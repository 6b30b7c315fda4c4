// `npm run figures`: writes the test suite's figures into docs/development.md from the last runs'
// own reports, so that no count or duration there is typed by hand. Each `npm test` leaves one
// JSON report per mode and part (test/vitest.config.ts: test/artifacts/suite-<mode>[-e2e].json);
// this reads those that exist and rewrites the block between the figures markers.
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const page = path.join(root, 'docs/development.md');
const start = '<!-- figures:start (npm run figures) -->';
const end = '<!-- figures:end -->';

interface Report {
  numTotalTests: number;
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTotalTestSuites: number;
  startTime: number;
  testResults: Array<{ endTime?: number }>;
}

const runs = [
  ['embedded', 'suite-embedded'],
  ['embedded, browser journeys', 'suite-embedded-e2e'],
  ['production', 'suite-production'],
  ['production, browser journeys', 'suite-production-e2e'],
] as const;

/** The block's table, from the reports found in `dir`. */
export function figuresBlock(dir: string): string {
  const rows: string[] = [];
  for (const [label, name] of runs) {
    const file = path.join(dir, `${name}.json`);
    if (!existsSync(file)) continue;
    const report = JSON.parse(readFileSync(file, 'utf8')) as Report;
    const ended = Math.max(report.startTime, ...report.testResults.map((r) => r.endTime ?? 0));
    const seconds = Math.round((ended - report.startTime) / 1000);
    const when = new Date(statSync(file).mtimeMs).toISOString().slice(0, 16).replace('T', ' ');
    rows.push(`| ${label} | ${when} UTC | ${report.testResults.length} | ${report.numPassedTests} | ${report.numFailedTests} | ${report.numPendingTests} | ${seconds} s |`);
  }
  if (!rows.length) return 'No run recorded yet: `npm test`, then `npm run figures`.';
  return ['| run | ended | files | passed | failed | skipped | vitest wall time |', '|---|---|---|---|---|---|---|', ...rows].join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const text = readFileSync(page, 'utf8');
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${page}: the figures markers are missing`);
  writeFileSync(page, `${text.slice(0, from + start.length)}\n${figuresBlock(path.join(root, 'test/artifacts'))}\n${text.slice(to)}`);
  console.log(`wrote the suite's figures into ${path.relative(root, page)}`);
}
