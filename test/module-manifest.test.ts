import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { platformModules } from '../src/modules.js';

// Adding a resource is one module folder (plus its migration): test/fixtures/macros is a throwaway
// one, with a schema file, an events file and its module.ts, and nothing else edited. Added to the
// list, its routes, types, webhook events and tag appear in every registry. It runs in a child
// process, so that its types and events stay out of this worker's schema.

const root = path.resolve(import.meta.dirname, '..');
const run = promisify(execFile);

describe('a module describes itself once', () => {
  it('shows a throwaway module added to the list in the route table, the schema, the webhook catalogue, the audit log and OpenAPI', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'test/fixtures/print-platform.ts'], { cwd: root, timeout: 60_000 });
    expect(JSON.parse(stdout)).toEqual({
      types: ['Macro'],
      queries: ['macros'],
      routes: ['Query.macros GET /:project_id/macros', 'Mutation.createMacro POST /:project_id/macros'],
      webhookEvents: ['macro.create', 'macro.update'],
      audited: ['macro.delete'],
      tags: ['Macros'],
      pathTags: ['get /{project_id}/macros Macros', 'post /{project_id}/macros Macros'],
    });
  });

  it('lists every module folder under src/modules once', () => {
    const folders = readdirSync(path.join(root, 'src/modules'), { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    expect(platformModules.map((module) => module.name).sort()).toEqual(folders.sort());
  });
});
