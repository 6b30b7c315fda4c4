import { useEffect, useState } from 'react';
import { request } from '../api.js';
import type { ConsoleSearchQuery } from '../gql/graphql.js';
import { LeadConversations, Search as SearchQuery } from './operations.js';
import { navigate, paths, type View } from './router.js';
import { useSession } from './session.js';

// Search over the project's conversations, messages and contacts (each word as a prefix: "refun"
// finds "refunds"), as the agent types. A result opens its conversation.

type Results = NonNullable<ConsoleSearchQuery['search']>;

export function SearchBox({ projectId, view }: { projectId: string; view: View }) {
  const { token } = useSession();
  const [q, setQ] = useState('');
  const [results, setResults] = useState<Results | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const words = q.trim();
    if (!words) return setResults(null);
    const timer = setTimeout(() => {
      request(SearchQuery, { project: projectId, q: words }, token).then(
        (r) => (setError(null), setResults(r.search)),
        (e: Error) => setError(e.message),
      );
    }, 200);
    return () => clearTimeout(timer);
  }, [q, projectId, token]);

  const open = (requestId: string) => {
    setQ('');
    navigate(paths.conversation(projectId, requestId, view));
  };
  const empty = results && !results.requests.length && !results.messages.length && !results.leads.length;
  return (
    <div className="search" role="search">
      <label htmlFor="search" className="visually-hidden">
        Search conversations, messages and contacts
      </label>
      <input id="search" type="search" placeholder="Search (s)" value={q} onChange={(e) => setQ(e.target.value)} onKeyDown={(e) => e.key === 'Escape' && setQ('')} autoComplete="off" />
      {error && <p role="alert" className="error">{error}</p>}
      {results && (
        <div className="search-results" aria-label="Search results" data-testid="search-results">
          {empty && <p className="none">Nothing matches “{q.trim()}”.</p>}
          {results.requests.length > 0 && <h4>Conversations</h4>}
          <ul>
            {results.requests.map((r) => (
              <li key={r.request_id}>
                <button type="button" className="result" onClick={() => open(r.request_id)}>
                  #{r.ticket_id} {r.first_text} <span className="role">{r.lead?.fullname || r.lead?.email}</span>
                </button>
              </li>
            ))}
          </ul>
          {results.messages.length > 0 && <h4>Messages</h4>}
          <ul>
            {results.messages.map((m) => (
              <li key={m._id}>
                <button type="button" className="result" onClick={() => open(m.recipient)}>
                  {m.text} <span className="role">{m.senderFullname}</span>
                </button>
              </li>
            ))}
          </ul>
          {results.leads.length > 0 && <h4>Contacts</h4>}
          <ul>
            {results.leads.map((l) => (
              <li key={l._id}>
                <button
                  type="button"
                  className="result"
                  onClick={() =>
                    request(LeadConversations, { project: projectId, lead: l._id }, token).then((r) => {
                      const latest = r.requests.requests[0];
                      if (latest) open(latest.request_id);
                      else setError(`${l.fullname || l.email} has no conversation yet.`);
                    }, (e: Error) => setError(e.message))
                  }
                >
                  {l.fullname} <span className="role">{l.email}</span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
