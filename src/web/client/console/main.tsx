import { StrictMode, useEffect, useMemo, useState, type FormEvent } from 'react';
import { createRoot } from 'react-dom/client';
import { liveClient, request } from '../api.js';
import type { ConsoleProjectsQuery } from '../gql/graphql.js';
import { Conversation } from './Conversation.js';
import { Inbox } from './Inbox.js';
import { Manage } from './Manage.js';
import { CreateProject, Projects } from './operations.js';
import { SessionContext, storeAuth, storedAuth } from './session.js';
import { SignIn } from './SignIn.js';
import { Team } from './Team.js';
import './style.css';

// The agent console: sign in, pick or create a project, then the inbox and a conversation side by
// side (one at a time on a phone). Everything goes through the public GraphQL API.

type Membership = NonNullable<ConsoleProjectsQuery['projects']>[number];

function ProjectPicker({ token, onPick }: { token: string; onPick: (projectId: string) => void }) {
  const [projects, setProjects] = useState<Membership[] | null>(null);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    request(Projects, {}, token).then((r) => setProjects(r.projects.filter((p) => p.role !== 'guest' && p.role !== 'user')), (e: Error) => setError(e.message));
  }, [token]);

  async function create(e: FormEvent) {
    e.preventDefault();
    try {
      const r = await request(CreateProject, { name }, token);
      onPick(r.createProject._id);
    } catch (err) {
      setError((err as Error).message);
    }
  }

  return (
    <main className="picker">
      <h1>Your projects</h1>
      {error && <p role="alert" className="error">{error}</p>}
      <ul>
        {projects?.map((p) => (
          <li key={p._id}>
            <button type="button" onClick={() => onPick(p.id_project!._id)}>
              {p.id_project?.name} <span className="role">({p.role})</span>
            </button>
          </li>
        ))}
        {projects?.length === 0 && <li>No project yet: create the first one.</li>}
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

function App() {
  const [auth, setAuth] = useState(storedAuth);
  const [projectId, setProjectId] = useState<string | null>(() => new URLSearchParams(location.search).get('project_id'));
  const [requestId, setRequestId] = useState<string | null>(null);
  const [screen, setScreen] = useState<'inbox' | 'manage'>('inbox');
  const [connected, setConnected] = useState(true);
  const live = useMemo(() => (auth ? liveClient(auth.token, setConnected) : null), [auth?.token]);
  useEffect(() => () => void live?.dispose(), [live]);

  if (!auth || !live) {
    return (
      <SignIn
        onSignedIn={(a) => {
          storeAuth(a);
          setAuth(a);
        }}
      />
    );
  }
  const signOut = () => {
    storeAuth(null);
    setAuth(null);
    setProjectId(null);
  };
  return (
    <SessionContext.Provider value={{ ...auth, live }}>
      <header className="topbar">
        <span className="brand">Support console</span>
        {projectId && (
          <button type="button" className="link" onClick={() => (setProjectId(null), setRequestId(null))}>
            Projects
          </button>
        )}
        {projectId && (
          <button type="button" className="link" aria-pressed={screen === 'manage'} onClick={() => setScreen(screen === 'manage' ? 'inbox' : 'manage')}>
            {screen === 'manage' ? 'Inbox' : 'Settings'}
          </button>
        )}
        {projectId && (
          <a className="link" href={`/widget/demo?project_id=${encodeURIComponent(projectId)}`} target="_blank" rel="noopener">
            Widget demo
          </a>
        )}
        {!connected && <span role="status" className="offline">Reconnecting…</span>}
        <span className="me">{auth.name}</span>
        <button type="button" className="link" onClick={signOut}>
          Sign out
        </button>
      </header>
      {!projectId ? (
        <ProjectPicker token={auth.token} onPick={setProjectId} />
      ) : screen === 'manage' ? (
        <Manage projectId={projectId} />
      ) : (
        <main className={`workspace${requestId ? ' has-conversation' : ''}`}>
          <div className="side">
            <Inbox projectId={projectId} selected={requestId} onSelect={setRequestId} />
            <Team projectId={projectId} />
          </div>
          {requestId ? (
            <div className="main">
              <button type="button" className="back link" onClick={() => setRequestId(null)}>
                ← Inbox
              </button>
              <Conversation key={requestId} projectId={projectId} requestId={requestId} />
            </div>
          ) : (
            <div className="main placeholder">
              <p>Pick a conversation. Project id: <code>{projectId}</code></p>
            </div>
          )}
        </main>
      )}
    </SessionContext.Provider>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
