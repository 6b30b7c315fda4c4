import { builder } from '../../../graphql/builder.js';
import type { RestRoutes } from '../../../rest/route-config.js';
import { minRole } from '../../../graphql/scopes.js';
import { definedArgs } from '../../../graphql/args.js';
import type { Context } from '../../../context.js';
import type { TestFailure, TestRunView, TestSuiteView } from './test-suites.js';

// A knowledge base's batch tests (test-suites.ts): the admins who write its contents keep them.

const actorId = async (ctx: Context) => (await ctx.principal())!.userId;

const KbTest = builder.objectRef<TestSuiteView['tests'][number]>('KbTest').implement({
  fields: (t) => ({
    id: t.exposeString('id', { nullable: false }),
    question: t.exposeString('question', { nullable: false }),
    expected: t.exposeString('expected', { nullable: false, description: 'The id or the name of the content it should find.' }),
  }),
});

const Found = builder.objectRef<NonNullable<TestFailure['found']>>('KbTestFound').implement({
  fields: (t) => ({ id: t.exposeString('id', { nullable: false }), name: t.exposeString('name', { nullable: false }) }),
});

const Failure = builder.objectRef<TestFailure>('KbTestFailure').implement({
  fields: (t) => ({
    question: t.exposeString('question', { nullable: false }),
    expected: t.exposeString('expected', { nullable: false }),
    found: t.field({ type: Found, nullable: true, description: 'The content the knowledge base answers from first; null: it abstains.', resolve: (f) => f.found }),
  }),
});

const KbTestRun = builder.objectRef<TestRunView>('KbTestRun').implement({
  description: "A run of a knowledge base's tests.",
  fields: (t) => ({
    id: t.exposeString('id', { nullable: false }),
    namespace: t.exposeString('namespace', { nullable: false }),
    trigger: t.exposeString('trigger', { nullable: false, description: '`manual` (POST /kb/tests/run) or `indexing` (after a content of the knowledge base was indexed or deleted).' }),
    total: t.exposeInt('total', { nullable: false }),
    passed: t.exposeInt('passed', { nullable: false }),
    pass_rate: t.exposeFloat('pass_rate', { nullable: false, description: 'passed / total (1 with no tests).' }),
    failures: t.field({ type: [Failure], nullable: false, resolve: (r) => r.failures }),
    createdAt: t.field({ type: 'DateTime', nullable: false, resolve: (r) => r.createdAt }),
  }),
});

const KbTestSuite = builder.objectRef<TestSuiteView>('KbTestSuite').implement({
  description: "A knowledge base's batch tests and their last run.",
  fields: (t) => ({
    namespace: t.exposeString('namespace', { nullable: false }),
    tests: t.field({ type: [KbTest], nullable: false, resolve: (s) => s.tests }),
    last_run: t.field({ type: KbTestRun, nullable: true, resolve: (s) => s.last_run }),
  }),
});

const namespaceDescription = 'The knowledge base; default: the default one.';

builder.queryFields((t) => ({
  kbTests: t.field({
    type: KbTestSuite,
    nullable: false,
    description: "A knowledge base's batch tests and their last run.",
    args: { project_id: t.arg.string({ required: true }), namespace: t.arg.string({ description: namespaceDescription }) },
    authScopes: minRole('admin'),
    resolve: async (_root, { project_id, ...input }, ctx) => ctx.services.kb.tests.read(project_id, await actorId(ctx), definedArgs(input)),
  }),
}));

builder.mutationFields((t) => ({
  saveKbTests: t.field({
    type: KbTestSuite,
    nullable: false,
    description: "Replaces a knowledge base's tests: `tests` is an array of {question, expected} (expected: the id or the name of the content the question should find; at most 500).",
    args: { project_id: t.arg.string({ required: true }), namespace: t.arg.string({ description: namespaceDescription }), tests: t.arg({ type: 'JSON' }) },
    authScopes: minRole('admin'),
    resolve: async (_root, { project_id, ...input }, ctx) => ctx.services.kb.tests.save(project_id, await actorId(ctx), { ...definedArgs(input), tests: input.tests }),
  }),
  runKbTests: t.field({
    type: KbTestRun,
    nullable: false,
    description: "Runs a knowledge base's tests now (as /kb/qa retrieves), stores and answers the run: pass rate and failures.",
    args: { project_id: t.arg.string({ required: true }), namespace: t.arg.string({ description: namespaceDescription }) },
    authScopes: minRole('admin'),
    resolve: async (_root, { project_id, ...input }, ctx) => ctx.services.kb.tests.runNow(project_id, await actorId(ctx), definedArgs(input)),
  }),
}));

export const routes: RestRoutes = {
  'Query.kbTests': { method: 'GET', path: '/:project_id/kb/tests' },
  'Mutation.saveKbTests': { method: 'POST', path: '/:project_id/kb/tests' },
  'Mutation.runKbTests': { method: 'POST', path: '/:project_id/kb/tests/run' },
};
