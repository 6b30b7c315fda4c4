import { useCallback, useEffect, useState } from 'react';
import { request } from '../api.js';
import type { ConsoleContactQuery, ConsoleLeadConversationsQuery } from '../gql/graphql.js';
import { Contact as ContactQuery, LeadConversations, UpdateLead } from './operations.js';
import { navigate, paths, type View } from './router.js';
import { useSession } from './session.js';
import { useLatestRead } from '../shared/latest-read.js';
import { isAdmin, useProjectRole } from './role.js';
import { announceErasure, downloadLeadExport, EraseDialog } from './Privacy.js';

// The contact panel of a conversation: who the visitor is (the lead, editable), where they wrote
// from (page, browser, OS and device parsed from their user agent, location from their address)
// and their other conversations. Admins and the owner also export everything held about the lead
// and erase them (Privacy.tsx); an erased contact's conversation is gone, so the console returns
// to the inbox and says what was deleted.

type ContactRequest = NonNullable<ConsoleContactQuery['request']>;
type Earlier = NonNullable<ConsoleLeadConversationsQuery['requests']>['requests'];

const place = (location: unknown) => {
  const l = (location ?? {}) as { city?: string; region?: string; country?: string };
  return [l.city, l.region, l.country].filter(Boolean).join(', ') || null;
};

export function ContactPanel({ projectId, requestId, view }: { projectId: string; requestId: string; view: View }) {
  const { token } = useSession();
  const [contact, setContact] = useState<ContactRequest | null>(null);
  const [earlier, setEarlier] = useState<Earlier>([]);
  const [editing, setEditing] = useState(false);
  const [form, setForm] = useState({ fullname: '', email: '', phone: '' });
  const [error, setError] = useState<string | null>(null);
  const [erasing, setErasing] = useState(false);
  const [exporting, setExporting] = useState(false);
  const admin = isAdmin(useProjectRole(projectId));

  const beginRead = useLatestRead(`${projectId} ${requestId}`);
  const load = useCallback(() => {
    const mayShow = beginRead();
    request(ContactQuery, { project: projectId, request: requestId }, token).then(
      (r) => {
        if (!mayShow()) return;
        setContact(r.request);
        const lead = r.request.lead;
        if (lead) {
          setForm({ fullname: lead.fullname ?? '', email: lead.email ?? '', phone: lead.phone ?? '' });
          request(LeadConversations, { project: projectId, lead: lead._id }, token).then((c) => mayShow() && setEarlier(c.requests.requests.filter((q) => q.request_id !== requestId)), () => {});
        }
      },
      (e: Error) => mayShow() && setError(e.message),
    );
  }, [projectId, requestId, token, beginRead]);
  useEffect(load, [load]);

  async function save() {
    if (!contact?.lead) return;
    setError(null);
    try {
      await request(UpdateLead, { project: projectId, id: contact.lead._id, fullname: form.fullname || undefined, email: form.email || undefined, phone: form.phone || undefined }, token);
      setEditing(false);
      load();
    } catch (e) {
      setError((e as Error).message);
    }
  }

  async function exportData() {
    if (!contact?.lead) return;
    setError(null);
    setExporting(true);
    try {
      await downloadLeadExport(projectId, contact.lead._id, token);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setExporting(false);
    }
  }

  const lead = contact?.lead;
  const attributes = Object.entries((lead?.attributes ?? {}) as Record<string, unknown>).filter(([, v]) => v !== null && typeof v !== 'object');
  return (
    <section className="contact" aria-label="Contact">
      <h3>Contact</h3>
      {error && <p role="alert" className="error">{error}</p>}
      {editing ? (
        <form
          className="contact-edit"
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <label>
            Name <input value={form.fullname} onChange={(e) => setForm({ ...form, fullname: e.target.value })} />
          </label>
          <label>
            E-mail <input type="email" value={form.email} onChange={(e) => setForm({ ...form, email: e.target.value })} />
          </label>
          <label>
            Phone <input type="tel" value={form.phone} onChange={(e) => setForm({ ...form, phone: e.target.value })} />
          </label>
          <span>
            <button type="submit">Save contact</button>{' '}
            <button type="button" className="secondary" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </span>
        </form>
      ) : (
        <dl className="facts" data-testid="contact">
          <dt>Name</dt>
          <dd>{lead?.fullname || '—'}</dd>
          <dt>E-mail</dt>
          <dd>{lead?.email || '—'}</dd>
          <dt>Phone</dt>
          <dd>{lead?.phone || '—'}</dd>
          <dt>Browser</dt>
          <dd data-testid="browser">{contact?.browser ? `${contact.browser.name} ${contact.browser.version ?? ''}`.trim() : '—'}</dd>
          <dt>System</dt>
          <dd data-testid="os">
            {contact?.os ? `${contact.os.name} ${contact.os.version ?? ''}`.trim() : '—'}
            {contact?.device ? ` · ${contact.device}` : ''}
          </dd>
          <dt>Location</dt>
          <dd data-testid="location">{place(contact?.location) ?? '—'}</dd>
          {attributes.map(([k, v]) => (
            <div key={k} className="attribute">
              <dt>{k}</dt>
              <dd>{String(v)}</dd>
            </div>
          ))}
        </dl>
      )}
      {lead && !editing && (
        <button type="button" className="link" onClick={() => setEditing(true)}>
          Edit contact
        </button>
      )}
      {lead && admin && !editing && (
        <p className="privacy-actions">
          <button type="button" className="link" disabled={exporting} onClick={() => void exportData()}>
            {exporting ? 'Exporting…' : 'Export data'}
          </button>{' '}
          <button type="button" className="link danger" aria-haspopup="dialog" onClick={() => setErasing(true)}>
            Erase contact…
          </button>
        </p>
      )}
      {lead && erasing && (
        <EraseDialog
          projectId={projectId}
          lead={lead}
          onClose={() => setErasing(false)}
          onErased={(text) => {
            announceErasure(text);
            navigate(paths.view(projectId, view));
          }}
        />
      )}
      <h4>Other conversations</h4>
      <ul className="earlier" aria-label="Other conversations">
        {earlier.map((q) => (
          <li key={q.request_id}>
            <a
              href={paths.conversation(projectId, q.request_id, view)}
              onClick={(e) => (e.preventDefault(), navigate(paths.conversation(projectId, q.request_id, view)))}
            >
              #{q.ticket_id} {q.first_text}
            </a>{' '}
            <span className="role">{q.merged_into ? 'merged' : q.status === 1000 ? 'closed' : 'open'}</span>
          </li>
        ))}
        {earlier.length === 0 && <li className="none">None</li>}
      </ul>
    </section>
  );
}
