import { useState } from 'react';
import { request } from '../../api.js';
import type { ConsoleConversationQuery } from '../../gql/graphql.js';
import { ContactPanel } from '../Contact.js';
import { AddNote, AddTag, RemoveTag } from '../operations.js';
import { PriorityPicker } from '../priority.js';
import type { View } from '../router.js';
import { ScheduledMessages } from '../ScheduledMessages.js';
import { useSession } from '../session.js';

// The conversation's side panel: its facts (status, assignees, department, rating, page), the
// contact, priority, scheduled messages, tags and notes.

export type Details = NonNullable<ConsoleConversationQuery['request']>;

/** Runs a change to the conversation, then reads it again; `done` is said once it worked (or the error is shown). */
export type Act = (run: () => Promise<unknown>, done?: string) => Promise<void>;

const statusLabel = (status: number) => (status === 100 ? 'Unassigned' : status === 200 ? 'Open, served' : status === 1000 ? 'Closed' : `Status ${status}`);

/** One line of text added on Enter (blank is ignored), then cleared. */
function AddLine({ label, onAdd }: { label: string; onAdd: (value: string) => void }) {
  const [text, setText] = useState('');
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        const value = text.trim();
        if (!value) return;
        setText('');
        onAdd(value);
      }}
    >
      <label>
        {label} <input value={text} onChange={(e) => setText(e.target.value)} />
      </label>
      <button type="submit">Add</button>
    </form>
  );
}

export function DetailsPanel(props: {
  projectId: string;
  requestId: string;
  view: View;
  details: Details | null;
  closed: boolean;
  merged: boolean;
  /** Merges made from this screen: the contact panel is drawn afresh after each. */
  merges: number;
  act: Act;
}) {
  const { projectId, requestId, view, details, closed, merged, merges, act } = props;
  const { token } = useSession();
  const tags = Array.isArray(details?.tags) ? (details.tags as Array<{ tag?: string; color?: string }>) : [];
  const assignees = details?.agents.map((a) => a.id_user?.fullName || a.id_user?.email || a._id) ?? [];
  return (
    <aside className="details" aria-label="Details">
      <dl className="facts">
        <dt>Status</dt>
        <dd data-testid="status">{details ? `${statusLabel(details.status)}${merged ? ' (merged)' : ''}` : '…'}</dd>
        <dt>Assignees</dt>
        <dd data-testid="assignees">{assignees.length ? assignees.join(', ') : details?.hasBot ? 'Bot' : 'Nobody yet'}</dd>
        <dt>Department</dt>
        <dd data-testid="department">{details?.department?.name ?? '—'}</dd>
        {details?.rating != null && (
          <>
            <dt>Rating</dt>
            <dd data-testid="rating">
              <span aria-label={`${details.rating} out of 5`}>{'★'.repeat(details.rating)}{'☆'.repeat(Math.max(0, 5 - details.rating))}</span> {details.rating}/5
              {details.rating_message ? <q>{details.rating_message}</q> : null}
            </dd>
          </>
        )}
        {details?.sourcePage && (
          <>
            <dt>Page</dt>
            <dd className="source">{details.sourcePage}</dd>
          </>
        )}
      </dl>
      <ContactPanel key={merges} projectId={projectId} requestId={requestId} view={view} />
      {details && <PriorityPicker projectId={projectId} requestId={requestId} priority={details.priority} token={token} act={act} />}
      <ScheduledMessages projectId={projectId} requestId={requestId} token={token} closed={closed} version={details} />
      <h3>Tags</h3>
      <ul className="tag-list" aria-label="Tags">
        {tags.map((t) => (
          <li key={t.tag} className="chip">
            {t.tag}
            <button
              type="button"
              className="remove"
              aria-label={`Remove tag ${t.tag}`}
              onClick={() => void act(() => request(RemoveTag, { project: projectId, request: requestId, tag: t.tag! }, token))}
            >
              ×
            </button>
          </li>
        ))}
        {tags.length === 0 && <li className="none">None</li>}
      </ul>
      <AddLine label="Add a tag" onAdd={(value) => void act(() => request(AddTag, { project: projectId, request: requestId, tag: { tag: value } }, token))} />
      <h3>Notes</h3>
      <ul>
        {details?.notes.map((n) => (
          <li key={n._id}>{n.text}</li>
        ))}
      </ul>
      <AddLine label="Add a note" onAdd={(value) => void act(() => request(AddNote, { project: projectId, request: requestId, text: value }, token))} />
    </aside>
  );
}
