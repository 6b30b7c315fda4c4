import { defineModule } from '../../module.js';
import { routes } from './schema.js';
import { routes as routes2 } from './learning/test-suites-schema.js';
import { kbEvents } from './events.js';
import { indexJob } from './indexing/indexing.js';
import { TestsAfterIndexing } from './learning/test-suites.js';
import { KbService } from './service.js';
import { ChatAnswerer } from './answering/answer.js';

// A content whose document stays unreachable ends in status 400 after the last attempt.
const kbIndexAttempts = 3;

declare module '../../module.js' {
  interface ServiceRegistry {
    kb: KbService;
    chatAnswerer: ChatAnswerer | null;
  }
}

export default defineModule({
  name: 'kb',
  services: {
    kb: (_s, { infra }) => new KbService(infra),
    /** The configured language model (LLM_BASE_URL), or none. */
    chatAnswerer: (_s, { infra }) => {
      const { llm, outbound } = infra.config;
      return llm.baseUrl ? new ChatAnswerer({ ...llm, baseUrl: llm.baseUrl }, outbound) : null;
    },
  },
  routes: { ...routes, ...routes2 },
  tags: [{ name: 'Knowledge base', description: 'Namespaces, contents and questions answered from them.', segments: ['kb'] }],
  events: kbEvents,
  // A knowledge base's batch tests run after each indexing of it.
  listeners: (services) => [new TestsAfterIndexing(services.kb.tests, services.infra.logger)],
  jobTypes: [indexJob],
  jobs: (queue, services) => {
    queue.define({
      job: indexJob,
      attempts: kbIndexAttempts,
      backoffMs: (attempt) => services.infra.config.kb.indexRetryDelayMs * 2 ** (attempt - 1),
      concurrency: 8,
      process: (data, job) => services.kb.indexing.run(data, { attempt: job.attempt, attempts: kbIndexAttempts }),
    });
    // Contents left in queue or in indexing by a stopped process are queued again (in-process jobs die with it).
    queue.runBeside({
      name: 'kb-resume-indexing',
      start: async () => {
        await services.kb.indexing.resume().catch((error) =>
          services.infra.logger.warn({ err: (error as Error).message }, 'could not resume knowledge-base indexing'),
        );
        return async () => {};
      },
    });
  },
});
