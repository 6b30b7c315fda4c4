import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { figuresBlock } from '../../src/cli/figures.js';

// docs/development.md's figures come from the reports the suite leaves, never typed by hand.

describe('the suite figures', () => {
  it('are a row per recorded run, counted and timed from its report', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'figures-'));
    writeFileSync(
      path.join(dir, 'suite-production.json'),
      JSON.stringify({
        numTotalTests: 12, numPassedTests: 10, numFailedTests: 1, numPendingTests: 1, numTotalTestSuites: 3,
        startTime: 1_000_000, testResults: [{ endTime: 1_061_400 }, { endTime: 1_030_000 }, {}],
      }),
    );
    const block = figuresBlock(dir);
    expect(block).toMatch(/^\| run \| ended \| files \| passed \| failed \| skipped \| vitest wall time \|/);
    expect(block).toMatch(/\| production \| \d{4}-\d\d-\d\d \d\d:\d\d UTC \| 3 \| 10 \| 1 \| 1 \| 61 s \|/);
    expect(block).not.toContain('embedded');
  });

  it('say no run is recorded when there is no report', () => {
    expect(figuresBlock(mkdtempSync(path.join(tmpdir(), 'figures-')))).toContain('No run recorded yet');
  });
});
