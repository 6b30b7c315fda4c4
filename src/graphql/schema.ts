import { lexicographicSortSchema, parse, printType, type ObjectTypeDefinitionNode } from 'graphql';
import { builder } from './builder.js';
import './scalars.js';
import '../realtime/schema.js';
import { routes as authRoutes } from '../modules/auth/schema.js';
import { routes as projectRoutes } from '../modules/projects/schema.js';
import { routes as teammateRoutes } from '../modules/teammates/schema.js';
import { routes as invitationRoutes } from '../modules/teammates/invitation-schema.js';
import { routes as webhookRoutes } from '../modules/webhooks/schema.js';
import { routes as kbRoutes } from '../modules/kb/schema.js';
import { routes as labelRoutes } from '../modules/labels/schema.js';
import { routes as customEventRoutes } from '../modules/custom-events/schema.js';
import { routes as departmentRoutes } from '../modules/departments/schema.js';
import { routes as groupRoutes } from '../modules/groups/schema.js';
import { routes as tagRoutes } from '../modules/tags/schema.js';
import { routes as cannedRoutes } from '../modules/canned/schema.js';
import { routes as leadRoutes } from '../modules/leads/schema.js';
import { routes as segmentRoutes } from '../modules/segments/schema.js';
import { aliases as botAliases, routes as botRoutes } from '../modules/bots/schema.js';
import { routes as requestRoutes } from '../modules/requests/schema.js';
import '../modules/requests/subscription.js';
import { routes as messageRoutes } from '../modules/messages/schema.js';
import { routes as scheduledMessageRoutes } from '../modules/messages/scheduled-schema.js';
import { aliases as routingAliases, routes as routingRoutes } from '../modules/routing/schema.js';
import { routes as presenceRoutes } from '../modules/presence/schema.js';
import { routes as analyticsRoutes } from '../modules/analytics/schema.js';
import { routes as emailRoutes } from '../modules/email/schema.js';
import { routes as apiKeyRoutes } from '../modules/api-keys/schema.js';
import { routes as fileRoutes } from '../modules/files/schema.js';
import { routes as searchRoutes } from '../modules/search/schema.js';
import { routes as assistantRoutes } from '../modules/assistant/schema.js';
import { routes as proposalRoutes } from '../modules/assistant/proposals-schema.js';
import { routes as kbTestRoutes } from '../modules/kb/learning/test-suites-schema.js';
import { routes as auditRoutes } from '../modules/audit/schema.js';
import { reportRoutes } from '../modules/reports/routes.js';
import { routes as slaRoutes } from '../modules/sla/schema.js';

// Importing a module's schema file registers its types; its `routes` give their /v3 REST paths.
export const restRoutes = {
  ...authRoutes,
  ...projectRoutes,
  ...teammateRoutes,
  ...invitationRoutes,
  ...webhookRoutes,
  ...kbRoutes,
  ...labelRoutes,
  ...customEventRoutes,
  ...departmentRoutes,
  ...groupRoutes,
  ...tagRoutes,
  ...cannedRoutes,
  ...leadRoutes,
  ...segmentRoutes,
  ...presenceRoutes,
  ...botRoutes,
  ...requestRoutes,
  ...messageRoutes,
  ...scheduledMessageRoutes,
  ...routingRoutes,
  ...analyticsRoutes,
  ...emailRoutes,
  ...apiKeyRoutes,
  ...fileRoutes,
  ...searchRoutes,
  ...assistantRoutes,
  ...proposalRoutes,
  ...kbTestRoutes,
  ...auditRoutes,
  ...reportRoutes,
  ...slaRoutes,
};

export const schema = builder.toSchema();

// SOFA reads each route argument's description from its root type's AST node and, for a type with
// none (a code-first schema has none), prints and parses the whole root type again for every
// argument: most of the time an app took to build. The nodes are made once, here.
for (const root of [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]) {
  if (root && !root.astNode) root.astNode = parse(printType(root)).definitions[0] as ObjectTypeDefinitionNode;
}

/** Further paths of some fields (older names clients still call), served exactly as their route. */
export const restAliases = {
  ...botAliases,
  ...routingAliases,
};

export const restOptions = { routes: restRoutes, aliases: restAliases, title: 'Support platform REST API', version: '3' };

/** The SDL as checked in: sorted, so it only changes when the schema does. */
export const printableSchema = () => lexicographicSortSchema(schema);
