import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from './helpers/app.js';

// What a client developer does with the document: generate types with openapi-typescript, write
// a small client with openapi-fetch against them, compile it strictly, and call the server.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Inside node_modules so the client resolves openapi-fetch as an application would; not in git.
const dir = path.join(root, 'node_modules/.cache', `openapi-client-${process.pid}-${Date.now()}`);

const client = `import createClient from 'openapi-fetch';
import type { paths } from './api.js';

export async function session(baseUrl: string, email: string) {
  const api = createClient<paths>({ baseUrl: \`\${baseUrl}/v3\` });
  const password = 'correct horse battery';
  const signup = await api.POST('/auth/signup', { body: { email, password, firstname: 'Typed', lastname: 'Client' } });
  if (signup.error) throw new Error(\`signup: \${signup.error.message}\`);
  const signin = await api.POST('/auth/signin', { body: { email, password } });
  const token: string | undefined = signin.data?.token ?? undefined;
  if (!token) throw new Error('signin: no token');
  const headers = { Authorization: token };
  const created = await api.POST('/projects', { headers, body: { name: 'Typed project' } });
  const projectId: string | undefined = created.data?._id;
  const revision: number | undefined = created.data?.__v;
  // @ts-expect-error the document names the revision \`__v\`, as the wire does
  void created.data?.revision;
  const listed = await api.GET('/projects', { headers });
  const names = (listed.data ?? []).map((membership) => membership.id_project?.name);
  const departments = projectId
    ? await api.GET('/{project_id}/departments', { headers, params: { path: { project_id: projectId } } })
    : undefined;
  const createdAt: string | undefined = departments?.data?.[0]?.createdAt;
  return { projectId, revision, names, createdAt, status: listed.response.status };
}
`;

describe('a typed client generated from the document', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await sharedTestApp();
    mkdirSync(dir, { recursive: true });
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await app.close();
  });

  it('generates, compiles with strict TypeScript, and signs in, creates a project and lists it', async () => {
    const document = JSON.parse(readFileSync(path.join(root, 'schema/openapi.json'), 'utf8'));
    const types = astToString(await openapiTS(document));
    writeFileSync(path.join(dir, 'api.d.ts'), types);
    writeFileSync(path.join(dir, 'client.ts'), client);

    const program = ts.createProgram([path.join(dir, 'client.ts')], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      skipLibCheck: true,
      types: [],
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(diagnostics).toEqual([]);

    const { session } = (await import(path.join(dir, 'client.ts'))) as { session: (baseUrl: string, email: string) => Promise<any> };
    const result = await session(app.baseUrl, `typed.${Date.now()}@example.test`);
    expect(result.status).toBe(200);
    expect(result.projectId).toEqual(expect.any(String));
    expect(result.revision).toBe(0);
    expect(result.names).toEqual(['Typed project']);
    expect(result.createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);
  });
});
