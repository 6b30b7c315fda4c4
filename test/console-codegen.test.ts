import { readFileSync } from 'node:fs';
import { generate } from '@graphql-codegen/cli';
import { describe, expect, it } from 'vitest';
import { codegenConfig } from '../src/web/codegen.js';

// The console's and the widget's GraphQL operations are typed from schema/schema.graphql by
// GraphQL Code Generator into src/web/client/gql (committed). Regenerating must give the same
// files: a schema change the clients' operations do not match fails generation here (or, when it
// only changes types, shows as a stale file), and `tsc -p src/web/client` then checks the code.

describe('typed GraphQL operations of the browser clients', () => {
  it('are what GraphQL Code Generator makes of the committed schema and the clients\' operations', async () => {
    const outputs = (await generate({ ...codegenConfig, cwd: process.cwd() }, false)) as Array<{ filename: string; content: string }>;
    expect(outputs.length).toBeGreaterThan(0);
    for (const { filename, content } of outputs) {
      expect(readFileSync(filename, 'utf8'), `${filename} is stale: run npx graphql-codegen --config src/web/codegen.ts`).toBe(content);
    }
  }, 60_000);
});
