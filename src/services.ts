import type { GraphQLSchema } from 'graphql';
import type { Context } from './context.js';
import type { Infrastructure } from './infra/index.js';
import { AuthService } from './modules/auth/service.js';
import { ProjectService } from './modules/projects/service.js';
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
import { RequestService } from './modules/requests/service.js';
import { RequestMerge } from './modules/requests/merge.js';
import { RequestRetention } from './modules/requests/retention.js';
import { SeenService } from './modules/requests/seen.js';
import { SearchService } from './modules/search/service.js';
import { payloadContext, RecordRenderer } from './modules/webhooks/render.js';
import { createEmailServices } from './modules/email/index.js';
import { AccountMail } from './modules/auth/account-mail.js';
import { ApiKeyService } from './modules/api-keys/service.js';
import { AssistantService } from './modules/assistant/service.js';
import { HistoryLearner } from './modules/assistant/learner.js';
import { ReplyDrafter } from './modules/assistant/draft.js';
import { SummaryService } from './modules/assistant/summaries.js';
import { ProposalService } from './modules/assistant/proposals.js';
import { ChatAnswerer } from './modules/kb/answering/answer.js';
import { AuditService } from './modules/audit/service.js';
import { ConversationsReport } from './modules/reports/conversations-csv.js';
import { LeadPrivacy } from './modules/leads/privacy.js';
import { SlaPolicyService } from './modules/sla/policies.js';
import { SlaTimers } from './modules/sla/timers.js';
import { SlaReports } from './modules/sla/report.js';

/**
 * Every domain service, built once per process and shared by GraphQL, REST and workers (the
 * consequences each module draws from the event log are its listeners: its module.ts). `schema`
 * renders what leaves the platform (webhook and external-bot payloads) as REST shows it; it is
 * passed in, since the schema's modules are built on these services.
 */
export function createServices(infra: Infrastructure, schema: GraphQLSchema) {
  const db = infra.database.prisma;
  const records: RecordRenderer = new RecordRenderer(() => schema, (): Context => payloadContext(services));
  const departments = new DepartmentService(db, infra.eventLog);
  const segments = new SegmentService(db, infra.eventLog);
  const projects = new ProjectService(db, infra.eventLog, infra.config.projectCacheMs);
  const teammates = new TeammateService(db, infra.eventLog, infra.config.jwtSecret, infra.config.authCacheMs, projects);
  // The conversation services (requests, messages, routing, presence) depend on one another.
  const routing = new RoutingService(db, projects);
  const requests = new RequestService(db, infra.eventLog, routing);
  const assignments = new AssignmentService(routing, requests);
  const requestMerge = new RequestMerge(db, infra.eventLog, requests, routing);
  const messages = new MessageService(db, infra.eventLog, requests, routing, infra.logger);
  const conversations = { routing, requests, assignments, messages, requestMerge };
  const seen = new SeenService(db, infra.eventLog, requests);
  const email = createEmailServices(infra);
  const apiKeys = new ApiKeyService(db, infra.eventLog, infra.config, infra.limiters);
  const kb = new KbService(infra);
  const presence = new PresenceService(db, infra.eventLog, infra.presence, infra.logger, infra.config.presenceTtlMs);
  const llm = infra.config.llm;
  const answerer = llm.baseUrl ? new ChatAnswerer({ ...llm, baseUrl: llm.baseUrl }, infra.config.outbound) : null;
  const drafter = answerer ? new ReplyDrafter(answerer, infra.logger) : null;
  const assistantSummaries = new SummaryService(db, infra.eventLog, requests, kb, answerer, infra.logger);
  const assistant = new AssistantService(db, kb, requests, drafter);
  const proposals = new ProposalService(db, infra.eventLog, kb, assistant.history, infra.logger);
  const historyLearner = new HistoryLearner(db, requests, assistant.history, infra.logger);
  const webhooks = new WebhookService(db, infra.eventLog, infra.bus, infra.queue, infra.config, infra.logger, records, infra.limiters);
  const botEngine = new BotEngine(infra, conversations, records, kb.qa);
  const services = {
    infra,
    audit: new AuditService(db, infra.config.auditRetentionDays, infra.config.retentionSweepIntervalMs, infra.logger),
    auth: new AuthService(db, infra.eventLog, infra.config, infra.limiters, projects, new AccountMail(db, email.mailer, infra.config, infra.logger), apiKeys),
    email,
    apiKeys,
    projects,
    teammates,
    webhooks,
    kb,
    labels: new LabelService(db, infra.eventLog),
    customEvents: new CustomEventService(db, infra.eventLog),
    files: new FileService(db, infra.eventLog, infra.files, teammates, infra.config.files),
    departments,
    groups: new GroupService(db, infra.eventLog, departments),
    tags: new TagService(db, infra.eventLog),
    canned: new CannedService(db, infra.eventLog),
    leads: new LeadService(db, infra.eventLog, segments),
    leadPrivacy: new LeadPrivacy(db, infra.eventLog, infra.files, infra.logger),
    retention: new RequestRetention(db, infra.eventLog, infra.files, infra.logger, infra.config.retentionSweepIntervalMs),
    segments,
    bots: new BotService(db, infra.eventLog, infra.config),
    intents: new IntentService(db, infra.eventLog),
    ...conversations,
    presence,
    seen,
    search: new SearchService(db),
    analytics: new AnalyticsService(db),
    reports: new ConversationsReport(db, infra.eventLog),
    botEngine,
    assistant,
    assistantSummaries,
    proposals,
    historyLearner,
    slaPolicies: new SlaPolicyService(db, infra.eventLog),
    slaTimers: new SlaTimers(db, infra.eventLog, infra.logger, infra.config.timers.sweepIntervalMs),
    slaReports: new SlaReports(db),
    scheduledMessages: new ScheduledMessages(db, infra.eventLog, requests, messages, teammates, infra.logger, infra.config.timers.sweepIntervalMs),
  };
  return services;
}

export type Services = ReturnType<typeof createServices>;

declare module './context.js' {
  // The context carries this process's services (see ContextServices).
  interface ContextServices extends Services {}
}
