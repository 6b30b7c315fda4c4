import { describe, expect, expectTypeOf, it } from 'vitest';
import { eventDefinitions, isDomainEventName, payloadSchema, type DomainEventInput, type WebhookEventName } from '../src/events.js';
import type { Emit } from '../src/infra/event-log.js';
import type { JobQueue } from '../src/infra/job-queue.js';
import { firstAttemptsJob } from '../src/modules/webhooks/delivery.js';
import { anyCustomEvent, webhookCatalogue } from '../src/modules/webhooks/catalogue.js';
import { jobTypes } from '../workers/jobs.js';

// Names of events and jobs are checked by the compiler (`tsc -p .` covers test/, and `npm test`
// runs it first): the `@ts-expect-error` lines below fail the type check if a misspelt name, or
// data of the wrong shape, ever compiles again.

/** Never called: it only has to type-check. */
function compileOnly(emit: Emit, queue: JobQueue) {
  void emit({ projectId: 'p', name: 'request.create', subject: 's', payload: { request_id: 'r' } });
  void emit({ projectId: 'p', name: 'event.emit.signup', subject: 's' });
  // @ts-expect-error a misspelt event name does not compile
  void emit({ projectId: 'p', name: 'request.creat', subject: 's' });
  // @ts-expect-error a catalogued key of the wrong type does not compile
  void emit({ projectId: 'p', name: 'request.create', subject: 's', payload: { request_id: 42 } });

  void queue.enqueue(firstAttemptsJob, { deliveryIds: ['d'] });
  // @ts-expect-error a job is enqueued through its type, never by a name typed by hand
  void queue.enqueue('webhooks.deliver-first', { deliveryIds: ['d'] });
  // @ts-expect-error data that is not the job's does not compile
  void queue.enqueue(firstAttemptsJob, { deliveryIDs: ['d'] });
}

describe('typed events and jobs', () => {
  it('takes only catalogued event names in emit', () => {
    expectTypeOf<DomainEventInput['name']>().not.toEqualTypeOf<string>();
    expect(typeof compileOnly).toBe('function');
  });

  it('gives every catalogued webhook event a payload schema and a renderer', () => {
    const names = Object.keys(webhookCatalogue()).filter((name) => name !== anyCustomEvent);
    for (const name of names) {
      expect(isDomainEventName(name), name).toBe(true);
      expect(payloadSchema(name), name).toBeDefined();
    }
    const webhookEvents = [...eventDefinitions()]
      .filter(([, definition]) => definition.webhook)
      .map(([name]) => name as WebhookEventName);
    expect(names.sort()).toEqual(webhookEvents.sort());
    expect(payloadSchema('event.emit.signup')).toBeDefined();
  });

  it('names each job type once, with a schema', () => {
    const names = jobTypes.map((job) => job.name);
    expect(new Set(names).size).toBe(names.length);
    for (const job of jobTypes) expect(typeof job.data.safeParse).toBe('function');
  });
});
