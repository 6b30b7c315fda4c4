import type { EventConsumer } from '../src/infra/event-consumers.js';
import type { JobQueue, JobType } from '../src/infra/job-queue.js';
import type { PlatformModule } from '../src/module.js';
import { platformModules } from '../src/modules.js';
import type { Services } from '../src/module.js';

/**
 * The job catalogue: every job type, declared by the module that owns the work (its module.ts,
 * with the processor behind it, which gets its data parsed by the queue and calls a service). The
 * server and `workers/index.ts` register the same list.
 */
export const jobTypes: readonly JobType[] = platformModules.flatMap((module) => module.jobTypes ?? []);

/** The consumers of committed events: each module's listeners, each read from its own cursor. */
export function eventConsumersOf(services: Services, modules: readonly PlatformModule[] = platformModules): EventConsumer[] {
  return modules.flatMap((module) => module.listeners?.(services) ?? []);
}

export function registerJobs(queue: JobQueue, services: Services, modules: readonly PlatformModule[] = platformModules) {
  for (const module of modules) module.jobs?.(queue, services);
  const consumers = services.infra.eventConsumers;
  for (const consumer of eventConsumersOf(services, modules)) consumers.register(consumer);
  queue.runBeside(consumers.task());
}
