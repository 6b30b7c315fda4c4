import { StrictMode, useEffect, useMemo, useState, type FormEvent } from 'react';
import { createRoot } from 'react-dom/client';
import { liveClient, request } from '../api.js';
import type { ConsoleProjectsQuery } from '../gql/graphql.js';
import { ForgotPasswordPage, InvitationSignup, PendingInvitations, ResetPasswordPage, VerifyEmailPage } from './Account.js';
import { Conversation } from './Conversation.js';
import { Inbox } from './Inbox.js';
import { ShortcutsHelp, useShortcuts } from './keyboard.js';
import { Manage } from './Manage.js';
import { Reports } from './Reports.js';
import { ReportConversations } from './ReportConversations.js';
import { SearchBox } from './Search.js';
import { useNotifications } from './notifications.js';
import { ErasureNotice } from './Privacy.js';
import { CreateProject, Projects, SignOut } from './operations.js';
import { navigate, paths, useRoute, type Route } from './router.js';
import { SessionContext, storeAuth, storedAuth, type StoredAuth } from './session.js';
import { SignIn } from './SignIn.js';
import { Team } from './Team.js';
import './style.css';

// The agent console: sign in, pick or create a project (or accept an invitation), then the inbox
// and a conversation side by side (one at a time on a phone). Every screen has its own address
// (router.ts). Everything goes through the public GraphQL API.

type Membership = NonNullable<ConsoleProjectsQuery['projects']>[number];
const isTeammate = (p: Membership) => p.role !== 'guest' && p.role !== 'user';

function ProjectPicker({ token, invitation }: { token: string; invitation?: string }) {
  const [projects, setProjects] = useState<Membership[] | null>(null);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const load = () => request(Projects, {}, token).then((r) => setProjects(r.projects.filter(isTeammate)), (e: Error) => setError(e.message));
  useEffect(() => void load(), [token]);

  async function create(e: FormEvent) {
    e.preventDefault();
    try {
      const r = await request(CreateProject, { name }, token);
      navigate(`/console/projects/${encodeURIComponent(r.createProject._id)}`);
    } catch (err) {
      setError((err as Error).message);
    }
  }

  return (
    <main className="picker">
      <PendingInvitations token={token} highlight={invitation} onJoined={(projectId) => navigate(`/console/projects/${encodeURIComponent(projectId)}`)} />
      <h1>Your projects</h1>
      {error && <p role="alert" className="error">{error}</p>}
      <ul>
        {projects?.map((p) => (
          <li key={p._id}>
            <a className="project" href={`/console/projects/${encodeURIComponent(p.id_project!._id)}`} onClick={(e) => (e.preventDefault(), navigate(`/console/projects/${encodeURIComponent(p.id_project!._id)}`))}>
              {p.id_project?.name} <span className="role">({p.role})</span>
            </a>
          </li>
        ))}
        {projects?.length === 0 && <li>No project yet: create the first one, or accept an invitation.</li>}
      </ul>
      <form onSubmit={create}>
        <label>
          New project name <input required value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <button type="submit">Create project</button>
      </form>
    </main>
  );
}

/** The pages of the e-mailed links that work signed out; null for every other route. */
function accountPage(route: Route, signIn: (auth: StoredAuth) => void) {
  if (route.kind === 'verify-email') return <VerifyEmailPage token={route.token} onSignedIn={signIn} />;
  if (route.kind === 'reset-password') return <ResetPasswordPage token={route.token} onSignedIn={signIn} />;
  if (route.kind === 'forgot-password') return <ForgotPasswordPage />;
  return null;
}

function NotifySwitches({ projectId }: { projectId: string }) {
  const { settings, enableBrowser, setSound } = useNotifications(projectId);
  return (
    <span className="notify">
      <label className="inline">
        <input type="checkbox" checked={settings.browser} onChange={(e) => void enableBrowser(e.target.checked)} /> Notifications
      </label>
      <label className="inline">
        <input type="checkbox" checked={settings.sound} onChange={(e) => setSound(e.target.checked)} /> Sound
      </label>
    </span>
  );
}

function Workspace({ route }: { route: Extract<Route, { kind: 'inbox' }> }) {
  const { projectId, view, requestId } = route;
  const { help, closeHelp, openHelp } = useShortcuts(() => requestId && navigate(paths.view(projectId, view)));
  return (
    <main className={`workspace${requestId ? ' has-conversation' : ''}`}>
      {help && <ShortcutsHelp onClose={closeHelp} />}
      <div className="side">
        <ErasureNotice />
        <SearchBox projectId={projectId} view={view} />
        <Inbox projectId={projectId} view={view} selected={requestId} />
        <Team projectId={projectId} />
        <footer className="side-footer">
          <NotifySwitches projectId={projectId} />
          <button type="button" className="link" onClick={openHelp}>
            Keyboard shortcuts (?)
          </button>
        </footer>
      </div>
      {requestId ? (
        <div className="main">
          <Conversation key={requestId} projectId={projectId} requestId={requestId} view={view} onBack={() => navigate(paths.view(projectId, view))} />
        </div>
      ) : (
        <div className="main placeholder">
          <p>Pick a conversation. Project id: <code>{projectId}</code></p>
        </div>
      )}
    </main>
  );
}

function App() {
  const route = useRoute();
  const [auth, setAuth] = useState(storedAuth);
  const [connected, setConnected] = useState(true);
  const live = useMemo(() => (auth ? liveClient(auth.token, setConnected) : null), [auth?.token]);
  useEffect(() => () => void live?.dispose(), [live]);

  const signIn = (a: StoredAuth) => {
    storeAuth(a);
    setAuth(a);
  };
  const page = accountPage(route, signIn);
  if (page) return page;
  if (!auth || !live) {
    if (route.kind === 'invitation') return <InvitationSignup invitationId={route.invitationId} token={route.token} onSignedIn={signIn} />;
    return <SignIn onSignedIn={signIn} />;
  }
  const signOut = () => {
    // The token ends on the server too (every node refuses it from now on), then here.
    void request(SignOut, {}, auth.token).catch(() => {});
    storeAuth(null);
    setAuth(null);
    navigate(paths.projects());
  };
  const projectId = route.kind === 'inbox' || route.kind === 'settings' || route.kind === 'reports' || route.kind === 'report-conversations' ? route.projectId : null;
  return (
    <SessionContext.Provider value={{ ...auth, live }}>
      <header className="topbar">
        <span className="brand">Support console</span>
        <nav aria-label="Console" className="nav">
          <a className="link" href={paths.projects()} onClick={(e) => (e.preventDefault(), navigate(paths.projects()))}>
            Projects
          </a>
          {projectId && (
            <a
              className="link"
              aria-current={route.kind === 'inbox' ? 'page' : undefined}
              href={`/console/projects/${encodeURIComponent(projectId)}`}
              onClick={(e) => (e.preventDefault(), navigate(`/console/projects/${encodeURIComponent(projectId)}`))}
            >
              Inbox
            </a>
          )}
          {projectId && (
            <a
              className="link"
              aria-current={route.kind === 'reports' || route.kind === 'report-conversations' ? 'page' : undefined}
              href={paths.reports(projectId)}
              onClick={(e) => (e.preventDefault(), navigate(paths.reports(projectId)))}
            >
              Reports
            </a>
          )}
          {projectId && (
            <a
              className="link"
              aria-current={route.kind === 'settings' ? 'page' : undefined}
              href={paths.settings(projectId, 'team')}
              onClick={(e) => (e.preventDefault(), navigate(paths.settings(projectId, 'team')))}
            >
              Settings
            </a>
          )}
          {projectId && (
            <a className="link" href={`/widget/demo?project_id=${encodeURIComponent(projectId)}`} target="_blank" rel="noopener">
              Widget demo
            </a>
          )}
        </nav>
        {!connected && <span role="status" className="offline">Reconnecting…</span>}
        <span className="me">{auth.name}</span>
        <button type="button" className="link" onClick={signOut}>
          Sign out
        </button>
      </header>
      {route.kind === 'inbox' ? (
        <Workspace route={route} />
      ) : route.kind === 'reports' ? (
        <Reports projectId={route.projectId} />
      ) : route.kind === 'report-conversations' ? (
        <ReportConversations projectId={route.projectId} filter={route.filter} page={route.page} />
      ) : route.kind === 'settings' ? (
        <Manage projectId={route.projectId} section={route.section} />
      ) : (
        <ProjectPicker token={auth.token} invitation={route.kind === 'invitation' ? route.invitationId : undefined} />
      )}
    </SessionContext.Provider>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
