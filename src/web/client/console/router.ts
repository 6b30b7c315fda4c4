import { useEffect, useState } from 'react';

// The console's addresses: every screen has its own, so a reload or a shared link opens it again.
//
//   /console                                              the projects (and invitations) of the account
//   /console/projects/:project_id                         the inbox, on its first view
//   /console/projects/:project_id/views/:view             an inbox view
//   /console/projects/:project_id/conversations/:request  a conversation (in the view it was opened from)
//   /console/projects/:project_id/settings/:section       a settings tab
//   /console/projects/:project_id/reports                 the reports
//   /console/projects/:project_id/reports/conversations?start_date=…&end_date=…&assignee=…
//                                                         the conversations behind a chart's bar
//   /console/invitations/:id?token=…                      an e-mailed invitation
//   /console/verify-email?token=… · /console/reset-password?token=… · /console/forgot-password
//
// Links the server e-mailed before these addresses existed (/invitations/:id, /verify-email,
// /reset-password, /forgot-password, /dashboard/#/project/:id/request-for-panel/:request) are
// taken to their console address.

export const views = ['mine', 'unassigned', 'open', 'closed'] as const;
export type View = (typeof views)[number];
export const defaultView: View = 'mine';

export const sections = ['team', 'departments', 'bots', 'knowledge-bases', 'webhooks', 'canned-responses', 'sla-policies', 'privacy', 'audit'] as const;
export type Section = (typeof sections)[number];
/** Settings tabs only the project's admins and owner see (the API refuses the others). */
export const adminSections: readonly Section[] = ['privacy', 'audit'];

/**
 * The filters of the `requests` query a chart's bar stands for: dates as DD/MM/YYYY (UTC days, as
 * the analytics count them), a teammate's user id, a department id, a tag; `label` says on the
 * list what was clicked ("Conversations per day: 2026-11-28").
 */
export interface ConversationFilter {
  start_date?: string;
  end_date?: string;
  assignee?: string;
  dept_id?: string;
  tags?: string;
  /** The rating given, 0 to 5 (a satisfaction bar). */
  rating?: string;
  /** DD/MM/YYYY: conversations with a message that day (a messages-per-day point). */
  active_date?: string;
  /** `1000`: closed ones only. */
  status?: string;
  label?: string;
}
const filterKeys = ['start_date', 'end_date', 'assignee', 'dept_id', 'tags', 'rating', 'active_date', 'status', 'label'] as const;

export type Route =
  | { kind: 'projects' }
  | { kind: 'inbox'; projectId: string; view: View; requestId: string | null }
  | { kind: 'settings'; projectId: string; section: Section }
  | { kind: 'reports'; projectId: string }
  | { kind: 'report-conversations'; projectId: string; filter: ConversationFilter; page: number }
  | { kind: 'invitation'; invitationId: string; token: string | null }
  | { kind: 'verify-email'; token: string | null }
  | { kind: 'reset-password'; token: string | null }
  | { kind: 'forgot-password' };

const isView = (v: string | null | undefined): v is View => !!v && (views as readonly string[]).includes(v);
const isSection = (s: string | null | undefined): s is Section => !!s && (sections as readonly string[]).includes(s);

/** The console address of a legacy e-mailed link, or null when the address is already the console's. */
export function canonicalPath(pathname: string, search: string, hash: string): string | null {
  const legacyPanel = /^#\/project\/([^/]+)\/request-for-panel\/([^/?]+)/.exec(hash);
  if (pathname.startsWith('/dashboard') && legacyPanel) return `/console/projects/${legacyPanel[1]}/conversations/${legacyPanel[2]}`;
  if (pathname.startsWith('/dashboard')) return '/console';
  for (const page of ['/invitations/', '/verify-email', '/reset-password', '/forgot-password']) {
    if (pathname.startsWith(page)) return `/console${pathname}${search}`;
  }
  // The console's first address form: /console?project_id=…
  const projectId = new URLSearchParams(search).get('project_id');
  if ((pathname === '/console' || pathname === '/console/') && projectId) return `/console/projects/${encodeURIComponent(projectId)}`;
  return null;
}

export function parseRoute(pathname: string, search: string): Route {
  const query = new URLSearchParams(search);
  const parts = pathname.replace(/^\/console\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  if (parts[0] === 'invitations' && parts[1]) return { kind: 'invitation', invitationId: parts[1], token: query.get('token') };
  if (parts[0] === 'verify-email') return { kind: 'verify-email', token: query.get('token') };
  if (parts[0] === 'reset-password') return { kind: 'reset-password', token: query.get('token') };
  if (parts[0] === 'forgot-password') return { kind: 'forgot-password' };
  if (parts[0] === 'projects' && parts[1]) {
    const projectId = parts[1];
    if (parts[2] === 'reports' && parts[3] === 'conversations') {
      const filter: ConversationFilter = {};
      for (const key of filterKeys) if (query.get(key)) filter[key] = query.get(key)!;
      return { kind: 'report-conversations', projectId, filter, page: Math.max(0, Number(query.get('page')) || 0) };
    }
    if (parts[2] === 'reports') return { kind: 'reports', projectId };
    if (parts[2] === 'settings') return { kind: 'settings', projectId, section: isSection(parts[3]) ? parts[3] : 'team' };
    if (parts[2] === 'conversations' && parts[3]) {
      const view = query.get('view');
      return { kind: 'inbox', projectId, view: isView(view) ? view : defaultView, requestId: parts[3] };
    }
    if (parts[2] === 'views' && isView(parts[3])) return { kind: 'inbox', projectId, view: parts[3], requestId: null };
    return { kind: 'inbox', projectId, view: defaultView, requestId: null };
  }
  return { kind: 'projects' };
}

const enc = encodeURIComponent;

export const paths = {
  projects: () => '/console',
  view: (projectId: string, view: View) => `/console/projects/${enc(projectId)}/views/${view}`,
  conversation: (projectId: string, requestId: string, view: View) =>
    `/console/projects/${enc(projectId)}/conversations/${enc(requestId)}${view === defaultView ? '' : `?view=${view}`}`,
  reports: (projectId: string) => `/console/projects/${enc(projectId)}/reports`,
  reportConversations: (projectId: string, filter: ConversationFilter, page = 0) => {
    const query = new URLSearchParams();
    for (const key of filterKeys) if (filter[key]) query.set(key, filter[key]!);
    if (page) query.set('page', String(page));
    return `/console/projects/${enc(projectId)}/reports/conversations?${query}`;
  },
  settings: (projectId: string, section: Section) => `/console/projects/${enc(projectId)}/settings/${section}`,
};

const changed = 'console:navigate';

/** Goes to a console address without reloading the page. */
export function navigate(path: string, options: { replace?: boolean } = {}) {
  if (path === location.pathname + location.search) return;
  if (options.replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  window.dispatchEvent(new Event(changed));
}

function current(): Route {
  const canonical = canonicalPath(location.pathname, location.search, location.hash);
  if (canonical) history.replaceState(null, '', canonical);
  return parseRoute(location.pathname, location.search);
}

/** The route of the address bar, following back/forward and `navigate`. */
export function useRoute(): Route {
  const [route, setRoute] = useState<Route>(current);
  useEffect(() => {
    const update = () => setRoute(current());
    window.addEventListener('popstate', update);
    window.addEventListener(changed, update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener(changed, update);
    };
  }, []);
  return route;
}
