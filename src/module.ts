import type { GraphQLSchema } from 'graphql';
import type { DomainEventDefinition } from './events.js';
import type { RestAliases, RestRoutes } from './rest/route-config.js';
import type { Db } from './infra/database.js';
import type { EventConsumer } from './infra/event-consumers.js';
import type { Infrastructure } from './infra/index.js';
import type { JobQueue, JobType } from './infra/job-queue.js';

// What a module says about itself, once: the platform's registries are loops over the list of
// these (src/modules.ts). A module's folder holds its schema (GraphQL types and fields, registered
// when its schema file is loaded), its service, its events and this description.

/**
 * Every module's services, by name: each module adds its own in its module.ts
 * (`declare module '../../module.js' { interface ServiceRegistry { tags: TagService } }`).
 */
export interface ServiceRegistry {
  infra: Infrastructure;
}

/** Every domain service, built once per process and shared by GraphQL, REST and workers (src/services.ts). */
export type Services = ServiceRegistry;

/** What a service is built from besides other services. */
export interface ServiceTools {
  infra: Infrastructure;
  db: Db;
  /** The API's schema: what leaves the platform (webhook and external-bot payloads) is rendered through it. */
  schema: GraphQLSchema;
}

/** How a module builds each of its services, from the others (any module's) and the tools. */
export type ServiceFactories = { [K in Exclude<keyof ServiceRegistry, 'infra'>]?: (services: Services, tools: ServiceTools) => ServiceRegistry[K] };

/** An OpenAPI tag and the paths it covers: their first segments after the project (`requests/messages` for two). */
export interface ApiTag {
  name: string;
  description: string;
  segments: readonly string[];
}

export interface PlatformModule {
  name: string;
  /** Its services. */
  services?: ServiceFactories;
  /** Its /v3 REST paths, one per GraphQL field (or written by hand), and older paths served as some of them. */
  routes?: RestRoutes;
  aliases?: RestAliases;
  /** Its OpenAPI tags. */
  tags?: readonly ApiTag[];
  /** Its events (declared in its events.ts); those with `webhook` make its webhook catalogue entries. */
  events?: Readonly<Record<string, DomainEventDefinition>>;
  /** Its consumers of committed events: the consequences it draws from the log, each from its own cursor. */
  listeners?: (services: Services) => EventConsumer[];
  /** Its job types, and where they are processed, with the tasks it runs beside the queue. */
  jobTypes?: readonly JobType[];
  jobs?: (queue: JobQueue, services: Services) => void;
}

/** Identity, typed: a module's manifest. */
export const defineModule = (module: PlatformModule): PlatformModule => module;

/** The route table of some modules: every route and alias, each field's once. */
export function restRoutesOf(modules: readonly PlatformModule[]): { routes: RestRoutes; aliases: RestAliases } {
  const routes: RestRoutes = {};
  const aliases: RestAliases = {};
  for (const module of modules) {
    for (const [field, route] of Object.entries(module.routes ?? {})) {
      if (Object.hasOwn(routes, field)) throw new Error(`${module.name}: the route of ${field} is declared twice`);
      routes[field] = route;
    }
    Object.assign(aliases, module.aliases ?? {});
  }
  return { routes, aliases };
}

/** The OpenAPI tags of some modules, in their order. */
export const apiTagsOf = (modules: readonly PlatformModule[]): ApiTag[] => modules.flatMap((module) => module.tags ?? []);
