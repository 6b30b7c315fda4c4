// One tag per resource, from a path's first segment after the project. A route under a segment
// not listed here is tagged by the segment itself (the document test asks for it to be listed).

export const tagDescriptions: Array<{ name: string; description: string }> = [
  { name: 'Auth', description: 'Sign-up, sign-in and the signed-in account.' },
  { name: 'Projects', description: 'Projects, their settings, widget and keys.' },
  { name: 'Teammates', description: 'Project users and their roles.' },
  { name: 'Invitations', description: 'Invitations to join a project.' },
  { name: 'API keys', description: "Keys that call the API as a project's integration." },
  { name: 'Webhooks', description: 'Webhook subscriptions and their deliveries.' },
  { name: 'Knowledge base', description: 'Namespaces, contents and questions answered from them.' },
  { name: 'Labels', description: 'Translations of the widget and e-mail texts.' },
  { name: 'Custom events', description: 'Events sent by clients.' },
  { name: 'Departments', description: 'Where requests are routed.' },
  { name: 'Groups', description: 'Groups of teammates.' },
  { name: 'Tags', description: 'Tags for requests.' },
  { name: 'Canned responses', description: 'Saved answers.' },
  { name: 'Leads', description: 'Visitors and contacts.' },
  { name: 'Segments', description: 'Saved lead filters.' },
  { name: 'Requests', description: 'Conversations: their state, participants, notes and tags.' },
  { name: 'Messages', description: 'Messages of a request.' },
  { name: 'Bots', description: 'Bots and their intents (FAQ).' },
  { name: 'Analytics', description: 'Counts and aggregates of requests and messages.' },
  { name: 'Search', description: 'Requests, messages and leads matching words.' },
  { name: 'E-mails', description: 'E-mails sent on behalf of a project.' },
  { name: 'Files', description: 'Uploads and downloads of files and images.' },
  { name: 'SLA policies', description: 'Response and resolution targets per department and priority, in operating hours.' },
  { name: 'Audit', description: "The project's audit log: who changed what, when and from where." },
  { name: 'Documentation', description: 'This document and its page.' },
];

const bySegment: Record<string, string> = {
  auth: 'Auth',
  projects: 'Projects',
  widgets: 'Projects',
  keys: 'Projects',
  project_users: 'Teammates',
  'teammate-by-user': 'Teammates',
  invitations: 'Invitations',
  api_keys: 'API keys',
  subscriptions: 'Webhooks',
  webhooks: 'Webhooks',
  kb: 'Knowledge base',
  labels: 'Labels',
  events: 'Custom events',
  departments: 'Departments',
  groups: 'Groups',
  tags: 'Tags',
  canned: 'Canned responses',
  leads: 'Leads',
  segments: 'Segments',
  requests: 'Requests',
  bots: 'Bots',
  faq_kb: 'Bots',
  faq: 'Bots',
  analytics: 'Analytics',
  search: 'Search',
  emails: 'E-mails',
  files: 'Files',
  images: 'Files',
  audit: 'Audit',
  sla_policies: 'SLA policies',
  'openapi.json': 'Documentation',
  docs: 'Documentation',
};

/** The resource of a route's path (`/:project_id/requests/:request_id/messages` → Messages). */
export function resourceTag(path: string): string {
  const segments = path.split('/').filter((s) => s && !s.startsWith(':') && !s.startsWith('{'));
  if (segments[0] === 'requests' && segments[1] === 'messages') return 'Messages';
  return bySegment[segments[0] ?? ''] ?? segments[0] ?? 'Other';
}
