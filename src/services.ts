import type { GraphQLSchema } from 'graphql';
import type { Infrastructure } from './infra/index.js';
import type { PlatformModule, ServiceTools, Services } from './module.js';
import { platformModules } from './modules.js';

export type { Services };

/**
 * Every domain service, built once per process and shared by GraphQL, REST and workers: each
 * module's `services` (its module.ts), each built when first asked for by another's constructor
 * (so the modules' order does not matter, and two services that need each other are an error
 * here, at start), then every one that nobody asked for. `schema` renders what leaves the
 * platform (webhook and external-bot payloads) as REST shows it; it is passed in, since the
 * schema's modules are built on these services.
 */
export function createServices(infra: Infrastructure, schema: GraphQLSchema, modules: readonly PlatformModule[] = platformModules): Services {
  const tools: ServiceTools = { infra, db: infra.database.prisma, schema };
  const services = { infra } as Services;
  const building: string[] = [];
  const names: string[] = [];
  for (const module of modules) {
    for (const [name, factory] of Object.entries(module.services ?? {}) as Array<[string, (services: Services, tools: ServiceTools) => unknown]>) {
      if (Object.hasOwn(services, name)) throw new Error(`${module.name}: a service named ${name} is built by another module too`);
      names.push(name);
      Object.defineProperty(services, name, {
        configurable: true,
        enumerable: true,
        get() {
          if (building.includes(name)) throw new Error(`services ${[...building, name].join(' → ')} need each other`);
          building.push(name);
          try {
            const value = factory(services, tools);
            Object.defineProperty(services, name, { value, enumerable: true });
            return value;
          } finally {
            building.pop();
          }
        },
      });
    }
  }
  for (const name of names) void services[name as keyof Services];
  return services;
}

declare module './context.js' {
  // The context carries this process's services (see ContextServices).
  interface ContextServices extends Services {}
}
