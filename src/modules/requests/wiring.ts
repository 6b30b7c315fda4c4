import type { Infrastructure } from '../../infra/index.js';
import { AnalyticsService } from '../analytics/service.js';
import { MessageService } from '../messages/service.js';
import { PresenceService } from '../presence/service.js';
import { LocalPresenceTracker, RedisPresenceTracker } from '../presence/tracker.js';
import { ProjectService } from '../projects/service.js';
import { AssignmentService } from '../routing/assignment.js';
import { RoutingService } from '../routing/service.js';
import type { TeammateService } from '../teammates/service.js';
import { offerWaitingJob } from './jobs.js';
import { RequestService } from './service.js';


/** The conversation services (requests, messages, routing, presence, analytics), which depend on one another. */
export function createConversationServices(infra: Infrastructure, teammates: TeammateService) {
  const db = infra.database.prisma;
  const routing = new RoutingService(db, new ProjectService(db, infra.eventLog));
  const requests = new RequestService(db, infra.eventLog, routing, infra.queue);
  const assignments = new AssignmentService(routing, requests);
  const messages = new MessageService(db, infra.eventLog, requests, routing);
  // A teammate who became available (or may take more) gets the requests that found nobody.
  teammates.onCapacityChange = (projectId) => infra.queue.enqueue(offerWaitingJob, { projectId });
  const { config } = infra;
  const tracker = config.redisUrl
    ? new RedisPresenceTracker(config.redisUrl, config.redisPrefix, config.presenceTtlMs)
    : new LocalPresenceTracker();
  const presence = new PresenceService(db, infra.eventLog, tracker, infra.logger, config.presenceTtlMs);
  return { routing, requests, assignments, messages, presence, analytics: new AnalyticsService(db) };
}
