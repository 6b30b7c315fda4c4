import type { GraphQLSchema } from 'graphql';
import type { Context } from './context.js';
import type { Infrastructure } from './infra/index.js';
import { AuthService } from './modules/auth/service.js';
import { ProjectService } from './modules/projects/service.js';
import { ProjectPurge, purgeProjectJob } from './modules/projects/purge.js';
import { TeammateService } from './modules/teammates/service.js';
import { WebhookService } from './modules/webhooks/service.js';
import { KbService } from './modules/kb/service.js';
import { LabelService } from './modules/labels/service.js';
import { CustomEventService } from './modules/custom-events/service.js';
import { FileService } from './modules/files/service.js';
import { DepartmentService } from './modules/departments/service.js';
import { GroupService } from './modules/groups/service.js';
import { TagService } from './modules/tags/service.js';
import { CannedService } from './modules/canned/service.js';
import { LeadService } from './modules/leads/service.js';
import { SegmentService } from './modules/segments/service.js';
import { BotService } from './modules/bots/service.js';
import { IntentService } from './modules/bots/intents.js';
import { BotEngine } from './modules/bots/engine/engine.js';
import { AnalyticsService } from './modules/analytics/service.js';
import { MessageService } from './modules/messages/service.js';
import { ScheduledMessages } from './modules/messages/scheduled.js';
import { PresenceService } from './modules/presence/service.js';
import { AssignmentService } from './modules/routing/assignment.js';
import { RoutingService } from './modules/routing/service.js';
import { offerWaitingJob } from './modules/requests/jobs.js';
import { RequestService } from './modules/requests/service.js';
import { SeenService } from './modules/requests/seen.js';
import { SearchService } from './modules/search/service.js';
import { payloadContext, RecordRenderer } from './modules/webhooks/render.js';
import { createEmailServices } from './modules/email/index.js';
import { AccountMail } from './modules/auth/account-mail.js';
import { ApiKeyService } from './modules/api-keys/service.js';

/**
 * Every domain service, built once per process and shared by GraphQL, REST and workers. `schema`
 * renders what leaves the platform (webhook and external-bot payloads) as REST shows it; it is
 * passed in, since the schema's modules are built on these services.
 */
export function createServices(infra: Infrastructure, schema: GraphQLSchema) {
  const db = infra.database.prisma;
  const records: RecordRenderer = new RecordRenderer(() => schema, (): Context => payloadContext(services));
  const departments = new DepartmentService(db, infra.eventLog);
  const segments = new SegmentService(db, infra.eventLog);
  const teammates = new TeammateService(db, infra.eventLog, infra.config.authCacheMs);
  const projects = new ProjectService(db, infra.eventLog, infra.config.projectCacheMs);
  const projectPurge = new ProjectPurge(db, infra.files, infra.logger);
  projects.onDeleted = (projectId) => infra.queue.enqueue(purgeProjectJob, { projectId }, { jobId: `purge-${projectId}` });
  // The conversation services (requests, messages, routing, presence) depend on one another.
  const routing = new RoutingService(db, projects);
  const requests = new RequestService(db, infra.eventLog, routing, infra.queue);
  const assignments = new AssignmentService(routing, requests);
  const messages = new MessageService(db, infra.eventLog, requests, routing, infra.logger);
  const conversations = { routing, requests, assignments, messages };
  const seen = new SeenService(db, infra.eventLog, requests);
  // A teammate who became available (or may take more) gets the requests that found nobody.
  teammates.onCapacityChange = (projectId) => infra.queue.enqueue(offerWaitingJob, { projectId });
  const email = createEmailServices(infra);
  const apiKeys = new ApiKeyService(db, infra.eventLog, infra.config, infra.limiters);
  teammates.invitations.onInvited = (invitation, secret) => email.invitations.send(invitation, secret);
  const kb = new KbService(infra);
  const presence = new PresenceService(db, infra.eventLog, infra.presence, infra.logger, infra.config.presenceTtlMs);
  // Whoever joins a project while connected is online there at once.
  projects.onJoined = (userId) => presence.joined(userId);
  teammates.invitations.onJoined = (userId) => presence.joined(userId);
  const services = {
    infra,
    auth: new AuthService(db, infra.eventLog, infra.config, infra.limiters, new AccountMail(db, email.mailer, infra.config, infra.logger), apiKeys),
    email,
    apiKeys,
    projects,
    projectPurge,
    teammates,
    webhooks: new WebhookService(db, infra.eventLog, infra.bus, infra.queue, infra.config, infra.logger, records, infra.limiters),
    kb,
    labels: new LabelService(db, infra.eventLog),
    customEvents: new CustomEventService(db, infra.eventLog),
    files: new FileService(db, infra.eventLog, infra.files, teammates, infra.config.files),
    departments,
    groups: new GroupService(db, infra.eventLog, departments),
    tags: new TagService(db, infra.eventLog),
    canned: new CannedService(db, infra.eventLog),
    leads: new LeadService(db, infra.eventLog, segments),
    segments,
    bots: new BotService(db, infra.eventLog, infra.config),
    intents: new IntentService(db, infra.eventLog),
    ...conversations,
    presence,
    seen,
    search: new SearchService(db),
    analytics: new AnalyticsService(db),
    botEngine: new BotEngine(infra, conversations, records, kb.qa),
    scheduledMessages: new ScheduledMessages(db, infra.eventLog, requests, messages, teammates, infra.logger, infra.config.timers.sweepIntervalMs),
  };
  services.auth.projects = projects;
  teammates.projects = projects;
  return services;
}

export type Services = ReturnType<typeof createServices>;

declare module './context.js' {
  // The context carries this process's services (see ContextServices).
  interface ContextServices extends Services {}
}
