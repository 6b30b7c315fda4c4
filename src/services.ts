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
import { createConversationServices } from './modules/requests/wiring.js';

/** Every domain service, built once per process and shared by GraphQL, REST and workers. */
export function createServices(infra: Infrastructure) {
  const db = infra.database.prisma;
  const departments = new DepartmentService(db, infra.eventLog);
  const segments = new SegmentService(db, infra.eventLog);
  const teammates = new TeammateService(db, infra.eventLog, infra.config.authCacheMs);
  const conversations = createConversationServices(infra, teammates);
  return {
    infra,
    auth: new AuthService(db, infra.eventLog, infra.config, infra.limiters),
    projects: new ProjectService(db, infra.eventLog, infra.config.projectCacheMs),
    teammates,
    webhooks: new WebhookService(db, infra.eventLog, infra.bus, infra.queue, infra.config, infra.logger),
    kb: new KbService(infra),
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
    botEngine: new BotEngine(infra, conversations),
  };
}

export type Services = ReturnType<typeof createServices>;
