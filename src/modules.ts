import type { PlatformModule } from './module.js';
import auth from './modules/auth/module.js';
import projects from './modules/projects/module.js';
import teammates from './modules/teammates/module.js';
import apiKeys from './modules/api-keys/module.js';
import webhooks from './modules/webhooks/module.js';
import kb from './modules/kb/module.js';
import labels from './modules/labels/module.js';
import customEvents from './modules/custom-events/module.js';
import departments from './modules/departments/module.js';
import groups from './modules/groups/module.js';
import tags from './modules/tags/module.js';
import canned from './modules/canned/module.js';
import leads from './modules/leads/module.js';
import segments from './modules/segments/module.js';
import requests from './modules/requests/module.js';
import messages from './modules/messages/module.js';
import bots from './modules/bots/module.js';
import analytics from './modules/analytics/module.js';
import search from './modules/search/module.js';
import email from './modules/email/module.js';
import files from './modules/files/module.js';
import sla from './modules/sla/module.js';
import audit from './modules/audit/module.js';
import presence from './modules/presence/module.js';
import routing from './modules/routing/module.js';
import assistant from './modules/assistant/module.js';
import reports from './modules/reports/module.js';

/**
 * Every module of the platform (each describes itself in its module.ts): the route table, the
 * GraphQL schema, the webhook catalogue, the OpenAPI tags (in this order), the event listeners
 * and the jobs are made from this list. Adding a module is adding it here.
 */
export const platformModules: readonly PlatformModule[] = [
  auth,
  projects,
  teammates,
  apiKeys,
  webhooks,
  kb,
  labels,
  customEvents,
  departments,
  groups,
  tags,
  canned,
  leads,
  segments,
  requests,
  messages,
  bots,
  analytics,
  search,
  email,
  files,
  sla,
  audit,
  presence,
  routing,
  assistant,
  reports,
];
