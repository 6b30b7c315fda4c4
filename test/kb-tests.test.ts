import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { eventually } from './helpers/conversations.js';
import { addIndexed } from './helpers/kb-fixtures.js';

// Batch tests of a knowledge base: questions with the content each should find, run on demand and
// after every indexing of the knowledge base.

let t: TestApp;
let p: SeededProject;
let other: SeededProject;
let kb: string;
let refunds: string;

const tests = () => [
  { question: 'How long does a refund take?', expected: refunds },
  { question: 'Do you ship abroad?', expected: 'Shipping abroad' },
  { question: 'Can I bring my dog to the office?', expected: 'Pets' },
];

const save = (body: Record<string, unknown>, project = p, token = project.admin.token) => t.post(`/v3/${project.projectId}/kb/tests`, { token, body });
const read = (project = p, token = project.admin.token, query = `?namespace=${kb}`) => t.get(`/v3/${project.projectId}/kb/tests${query}`, { token });

beforeAll(async () => {
  t = await sharedTestApp();
  p = await t.seedProject('Knowledge tests');
  other = await t.seedProject('Knowledge tests elsewhere');
  kb = (await t.post(`/v3/${p.projectId}/kb/namespace`, { token: p.admin.token, body: { name: 'Help centre' } })).body.id;
  refunds = await addIndexed(t, p.projectId, p.admin.token, kb, 'How long does a refund take?\nRefunds reach your account within 5 working days.', 'faq');
  const shipping = await t.post(`/v3/${p.projectId}/kb`, {
    token: p.admin.token,
    body: { namespace: kb, type: 'faq', name: 'Shipping abroad', content: 'Do you ship abroad?\nWe ship to 40 countries; see the list at checkout.' },
  });
  await eventually(async () => (await t.get(`/v3/${p.projectId}/kb/${shipping.body.value._id}`, { token: p.admin.token })).body.status === 300, 15_000);
});
afterAll(() => t.close());

describe('POST /kb/tests', () => {
  it('stores the questions of a knowledge base with what each should find, and lists them', async () => {
    const res = await save({ namespace: kb, tests: tests() });
    expect(res.status).toBe(200);
    expect(res.body.tests.map((x: { question: string }) => x.question)).toEqual(tests().map((x) => x.question));
    const listed = await read();
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ namespace: kb, tests: tests().map((x) => expect.objectContaining(x)) });
  });

  it('refuses a test without its expected content with 400 naming it, storing nothing', async () => {
    await save({ namespace: kb, tests: tests() });
    const res = await save({ namespace: kb, tests: [{ question: 'Where are you?', expected: 'Address' }, { question: 'Who are you?' }] });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_USER_INPUT', field: 'tests.1.expected' });
    expect((await read()).body.tests).toHaveLength(3);
  });

  it('refuses a knowledge base of another project with 400 naming namespace', async () => {
    const foreign = (await t.get(`/v3/${other.projectId}/kb/namespace/all`, { token: other.admin.token })).body[0].id;
    const res = await save({ namespace: foreign, tests: tests() });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_USER_INPUT', field: 'namespace' });
    expect((await read(other, other.admin.token, `?namespace=${foreign}`)).body.tests).toEqual([]);
  });

  it('is for admins: agents and other projects are refused', async () => {
    expect((await save({ namespace: kb, tests: tests() }, p, p.agent.token)).status).toBe(403);
    expect((await read(p, p.agent.token)).status).toBe(403);
    expect((await read(p, other.admin.token)).status).toBe(403);
    expect((await t.post(`/v3/${p.projectId}/kb/tests/run`, { token: p.agent.token, body: { namespace: kb } })).status).toBe(403);
  });
});

describe('POST /kb/tests/run', () => {
  it('answers the pass rate and each failure with what the knowledge base found instead', async () => {
    await save({ namespace: kb, tests: tests() });
    const res = await t.post(`/v3/${p.projectId}/kb/tests/run`, { token: p.admin.token, body: { namespace: kb } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ namespace: kb, trigger: 'manual', total: 3, passed: 2, pass_rate: 0.667 });
    expect(res.body.failures).toEqual([{ question: 'Can I bring my dog to the office?', expected: 'Pets', found: null }]);
    expect((await read()).body.last_run).toMatchObject({ id: res.body.id, passed: 2 });
  });

  it('names the content found when it is not the one expected', async () => {
    await save({ namespace: kb, tests: [{ question: 'How long does a refund take?', expected: 'Shipping abroad' }] });
    const res = await t.post(`/v3/${p.projectId}/kb/tests/run`, { token: p.admin.token, body: { namespace: kb } });
    expect(res.body.failures).toEqual([{ question: 'How long does a refund take?', expected: 'Shipping abroad', found: { id: refunds, name: 'How long does a refund take?' } }]);
  });

  it('runs by itself after the knowledge base is indexed again, keeping the last result', async () => {
    await save({ namespace: kb, tests: tests() });
    const added = await t.post(`/v3/${p.projectId}/kb`, {
      token: p.admin.token,
      body: { namespace: kb, type: 'faq', name: 'Pets', content: 'Can I bring my dog to the office?\nPets are welcome in the office on Fridays.' },
    });
    expect(added.status).toBe(200);
    const run = await eventually(async () => {
      const last = (await read()).body.last_run;
      return last?.trigger === 'indexing' && last.passed === 3 ? last : null;
    }, 15_000);
    expect(run).toMatchObject({ total: 3, pass_rate: 1, failures: [] });
  });

  it('is the same over GraphQL', async () => {
    await save({ namespace: kb, tests: [{ question: 'Do you ship abroad?', expected: 'Shipping abroad' }] });
    const res = await t.gql(
      `mutation($p: String!, $n: String) { runKbTests(project_id: $p, namespace: $n) { total passed pass_rate failures { question } } }`,
      { p: p.projectId, n: kb },
      p.admin.token,
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.runKbTests).toEqual({ total: 1, passed: 1, pass_rate: 1, failures: [] });
  });
});
