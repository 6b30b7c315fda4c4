import { z } from 'zod';
import { parseInput } from '../../../errors.js';
import type { Db } from '../../../infra/database.js';
import type { EventConsumer, EventWork } from '../../../infra/event-consumers.js';
import type { LoggedEvent } from '../../../infra/event-log.js';
import type { Logger } from '../../../infra/logger.js';
import type { KbTestRun } from '../../../generated/prisma/client.js';
import type { LearningService } from './learning.js';
import type { KnowledgeBaseService } from '../namespaces.js';
import type { Retriever } from '../retrieval/retrieval.js';
import { kbEvents } from '../indexing/status.js';

// Batch tests of a knowledge base: questions, each with the content it should find (its id or its
// name). A run asks every question as /kb/qa retrieves (the same retriever, what agents taught it,
// the same abstention floors) and compares the content it would answer from first with the one
// expected. Runs are stored; one runs after every indexing of the namespace (a consumer of the
// event log), so a content that breaks an answer shows up in the last run without anybody asking.

export const maxTests = 500;

const testCase = z.object({
  question: z.string('is required').trim().min(1, 'must not be empty').max(4000, 'must be at most 4000 characters'),
  expected: z.string('is required (the id or the name of the content it should find)').trim().min(1, 'must not be empty').max(500, 'must be at most 500 characters'),
});

const saveInput = z.object({
  namespace: z.string().optional(),
  tests: z.array(testCase, 'must be an array of {question, expected}').max(maxTests, `must hold at most ${maxTests} tests`),
});
const namespaceInput = z.object({ namespace: z.string().optional() });

export interface TestFailure {
  question: string;
  expected: string;
  /** What the knowledge base answers from first; null when it abstains. */
  found: { id: string; name: string } | null;
}

export interface TestRunView {
  id: string;
  namespace: string;
  trigger: string;
  total: number;
  passed: number;
  pass_rate: number;
  failures: TestFailure[];
  createdAt: Date;
}

export interface TestSuiteView {
  namespace: string;
  tests: Array<{ id: string; question: string; expected: string }>;
  last_run: TestRunView | null;
}

export class KbTestSuites {
  constructor(
    private db: Db,
    private namespaces: KnowledgeBaseService,
    private retriever: Retriever,
    private learning: LearningService,
  ) {}

  /** Replaces the knowledge base's tests with `tests` (an empty list removes them). */
  async save(projectId: string, actorId: string, input: unknown): Promise<TestSuiteView> {
    const data = parseInput(saveInput, input);
    const kb = await this.namespaces.resolve(projectId, data.namespace, actorId);
    await this.db.$transaction(async (tx) => {
      await tx.kbTestCase.deleteMany({ where: { id_project: projectId, namespace: kb.id } });
      await tx.kbTestCase.createMany({
        data: data.tests.map((t, position) => ({ id_project: projectId, namespace: kb.id, question: t.question, expected: t.expected, position })),
      });
    });
    return this.suite(projectId, kb.id);
  }

  async read(projectId: string, actorId: string, input: unknown): Promise<TestSuiteView> {
    const data = parseInput(namespaceInput, input);
    const kb = await this.namespaces.resolve(projectId, data.namespace, actorId);
    return this.suite(projectId, kb.id);
  }

  /** Runs the knowledge base's tests now and stores the run. */
  async runNow(projectId: string, actorId: string, input: unknown): Promise<TestRunView> {
    const data = parseInput(namespaceInput, input);
    const kb = await this.namespaces.resolve(projectId, data.namespace, actorId);
    const result = await this.run(projectId, kb.id);
    return view(await this.db.kbTestRun.create({ data: { ...result, trigger: 'manual' } }));
  }

  /** Asks every test's question; null when the namespace has no tests. */
  async run(projectId: string, namespace: string) {
    const tests = await this.db.kbTestCase.findMany({ where: { id_project: projectId, namespace }, orderBy: { position: 'asc' } });
    const failures: TestFailure[] = [];
    for (const test of tests) {
      const found = await this.firstFound(projectId, namespace, test.question);
      const wanted = test.expected.toLowerCase();
      if (found && (found.id === test.expected || found.name.trim().toLowerCase() === wanted)) continue;
      failures.push({ question: test.question, expected: test.expected, found });
    }
    return { id_project: projectId, namespace, total: tests.length, passed: tests.length - failures.length, failures: failures as object[] };
  }

  async hasTests(projectId: string, namespace: string) {
    return (await this.db.kbTestCase.count({ where: { id_project: projectId, namespace } })) > 0;
  }

  async record(data: Awaited<ReturnType<KbTestSuites['run']>>, trigger: string, db: Pick<Db, 'kbTestRun'> = this.db) {
    await db.kbTestRun.create({ data: { ...data, trigger } });
  }

  /** The content /kb/qa would answer from first. */
  private async firstFound(projectId: string, namespace: string, question: string) {
    const found = await this.retriever.search(projectId, namespace, question, 3);
    const [best] = await this.learning.demote(projectId, namespace, question, found);
    return this.retriever.relevant(best) ? { id: best.contentId, name: best.contentName } : null;
  }

  private async suite(projectId: string, namespace: string): Promise<TestSuiteView> {
    const [tests, last] = await Promise.all([
      this.db.kbTestCase.findMany({ where: { id_project: projectId, namespace }, orderBy: { position: 'asc' } }),
      this.db.kbTestRun.findFirst({ where: { id_project: projectId, namespace }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] }),
    ]);
    return {
      namespace,
      tests: tests.map((t) => ({ id: t.id, question: t.question, expected: t.expected })),
      last_run: last ? view(last) : null,
    };
  }
}

function view(run: KbTestRun): TestRunView {
  return {
    id: run.id,
    namespace: run.namespace,
    trigger: run.trigger,
    total: run.total,
    passed: run.passed,
    pass_rate: run.total ? Math.round((run.passed / run.total) * 1000) / 1000 : 1,
    failures: (Array.isArray(run.failures) ? run.failures : []) as unknown as TestFailure[],
    createdAt: run.createdAt,
  };
}

/** Runs a knowledge base's tests after a content of it was indexed or deleted (once per batch of events). */
export class TestsAfterIndexing implements EventConsumer {
  readonly name = 'kb-tests';

  constructor(
    private suites: KbTestSuites,
    private logger: Logger,
  ) {}

  wants(event: LoggedEvent) {
    return event.name === kbEvents.indexed || event.name === kbEvents.contentDelete;
  }

  async handle(projectId: string, events: LoggedEvent[]): Promise<EventWork | void> {
    const runs: Array<Awaited<ReturnType<KbTestSuites['run']>>> = [];
    for (const namespace of new Set(events.map((e) => String(e.payload.namespace ?? '')).filter(Boolean))) {
      try {
        if (await this.suites.hasTests(projectId, namespace)) runs.push(await this.suites.run(projectId, namespace));
      } catch (error) {
        this.logger.warn({ err: error, projectId, namespace }, 'kb: the tests of a knowledge base could not run after indexing');
      }
    }
    if (!runs.length) return;
    return {
      write: async (tx) => {
        for (const run of runs) await this.suites.record(run, 'indexing', tx);
      },
    };
  }
}
