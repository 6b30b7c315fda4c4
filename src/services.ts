import type { Infrastructure } from './infra/index.js';
import { AuthService } from './modules/auth/service.js';
import { ProjectService } from './modules/projects/service.js';
import { TeammateService } from './modules/teammates/service.js';

/** Every domain service, built once per process and shared by GraphQL, REST and workers. */
export function createServices(infra: Infrastructure) {
  const db = infra.database.prisma;
  return {
    infra,
    auth: new AuthService(db, infra.eventLog, infra.config),
    projects: new ProjectService(db, infra.eventLog),
    teammates: new TeammateService(db, infra.eventLog),
  };
}

export type Services = ReturnType<typeof createServices>;
