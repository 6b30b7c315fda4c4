import { useCallback, useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { request, subscribe } from '../api.js';
import {
  AddKbContent,
  BotsAndIntents,
  CreateBot,
  CreateCanned,
  CreateDepartment,
  CreateGroup,
  CreateIntent,
  CreateKb,
  CreateWebhook,
  DepartmentsAndGroups,
  Invite,
  KbContents,
  KbIndexing,
  KnowledgeBases,
  Redeliver,
  TeamAndInvitations,
  WebhookDeliveries,
  Webhooks,
} from './manage-operations.js';
import { CannedResponses } from './operations.js';
import { useSession } from './session.js';

// The project's set-up: teammates and invitations, departments and groups, bots and intents,
// knowledge bases (indexing live), webhooks (delivery log, redeliver) and canned responses.

const sections = ['Team', 'Departments', 'Bots', 'Knowledge bases', 'Webhooks', 'Canned responses'] as const;
type Section = (typeof sections)[number];

/** Loads with `fetcher` on mount and after every successful action. */
function useLoad<T>(fetcher: () => Promise<T>) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    fetcher().then(setData, (e: Error) => setError(e.message));
  }, [fetcher]);
  useEffect(load, [load]);
  const act = async (run: () => Promise<unknown>) => {
    setError(null);
    try {
      await run();
      load();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return { data, error, load, act };
}

function Form({ label, onSubmit, children }: { label: string; onSubmit: () => void; children: ReactNode }) {
  return (
    <form
      className="inline-form"
      aria-label={label}
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      {children}
      <button type="submit">{label}</button>
    </form>
  );
}

const Failure = ({ error }: { error: string | null }) => (error ? <p role="alert" className="error">{error}</p> : null);

function TeamSection({ projectId }: { projectId: string }) {
  const { token } = useSession();
  const { data, error, act } = useLoad(useCallback(() => request(TeamAndInvitations, { project: projectId }, token), [projectId, token]));
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('agent');
  return (
    <>
      <Failure error={error} />
      <h3>Teammates</h3>
      <ul className="rows">
        {data?.teammates
          .filter((t) => t.role !== 'guest' && t.role !== 'user')
          .map((t) => (
            <li key={t._id}>
              {t.id_user?.fullName || t.id_user?.email} · {t.role} · {t.user_available ? 'available' : 'unavailable'}
            </li>
          ))}
      </ul>
      <h3>Pending invitations</h3>
      <ul className="rows">
        {data?.invitations.map((i) => (
          <li key={i._id}>
            {i.email} · {i.role}
          </li>
        ))}
        {data?.invitations.length === 0 && <li>None.</li>}
      </ul>
      <Form label="Invite" onSubmit={() => act(() => request(Invite, { project: projectId, email, role }, token).then(() => setEmail('')))}>
        <label>
          E-mail <input type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </label>
        <label>
          Role
          <select value={role} onChange={(e) => setRole(e.target.value)}>
            <option value="agent">agent</option>
            <option value="admin">admin</option>
          </select>
        </label>
      </Form>
    </>
  );
}

function DepartmentsSection({ projectId }: { projectId: string }) {
  const { token } = useSession();
  const { data, error, act } = useLoad(useCallback(() => request(DepartmentsAndGroups, { project: projectId }, token), [projectId, token]));
  const [name, setName] = useState('');
  const [bot, setBot] = useState('');
  const [group, setGroup] = useState('');
  const botName = (id: string | null) => data?.bots.find((b) => b._id === id)?.name;
  return (
    <>
      <Failure error={error} />
      <h3>Departments</h3>
      <ul className="rows">
        {data?.departments.map((d) => (
          <li key={d._id}>
            {d.name}
            {d.default ? ' (default)' : ''} · routing {d.routing ?? 'pooled'}
            {d.id_bot ? ` · bot ${botName(d.id_bot) ?? d.id_bot}` : ''}
          </li>
        ))}
      </ul>
      <Form label="Add department" onSubmit={() => act(() => request(CreateDepartment, { project: projectId, name, routing: 'assigned', bot: bot || undefined }, token).then(() => setName('')))}>
        <label>
          Name <input required value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <label>
          Bot
          <select value={bot} onChange={(e) => setBot(e.target.value)}>
            <option value="">none</option>
            {data?.bots.map((b) => (
              <option key={b._id} value={b._id}>
                {b.name}
              </option>
            ))}
          </select>
        </label>
      </Form>
      <h3>Groups</h3>
      <ul className="rows">
        {data?.groups.map((g) => (
          <li key={g._id}>
            {g.name} · {g.members.length} member(s)
          </li>
        ))}
      </ul>
      <Form label="Add group" onSubmit={() => act(() => request(CreateGroup, { project: projectId, name: group, members: [] }, token).then(() => setGroup('')))}>
        <label>
          Name <input required value={group} onChange={(e) => setGroup(e.target.value)} />
        </label>
      </Form>
    </>
  );
}

function BotsSection({ projectId }: { projectId: string }) {
  const { token } = useSession();
  const { data, error, act } = useLoad(useCallback(() => request(BotsAndIntents, { project: projectId }, token), [projectId, token]));
  const [name, setName] = useState('');
  const [template, setTemplate] = useState('example');
  const [intent, setIntent] = useState({ bot: '', question: '', answer: '' });
  return (
    <>
      <Failure error={error} />
      {data?.bots.map((b) => (
        <section key={b._id} className="card">
          <h3>
            {b.name} <span className="role">({b.type})</span>
          </h3>
          <ul className="rows">
            {data.intents
              .filter((i) => i.id_faq_kb === b._id)
              .map((i) => (
                <li key={i._id}>
                  <strong>{i.intent_display_name}</strong>: {i.question} → <span className="answer">{i.answer}</span>
                </li>
              ))}
          </ul>
        </section>
      ))}
      <Form label="Create bot" onSubmit={() => act(() => request(CreateBot, { project: projectId, name, template }, token).then(() => setName('')))}>
        <label>
          Name <input required value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <label>
          Template
          <select value={template} onChange={(e) => setTemplate(e.target.value)}>
            <option value="example">example</option>
            <option value="blank">blank</option>
            <option value="handoff">handoff</option>
          </select>
        </label>
      </Form>
      <Form
        label="Add intent"
        onSubmit={() => act(() => request(CreateIntent, { project: projectId, ...intent }, token).then(() => setIntent({ ...intent, question: '', answer: '' })))}
      >
        <label>
          Bot
          <select required value={intent.bot} onChange={(e) => setIntent({ ...intent, bot: e.target.value })}>
            <option value="">choose…</option>
            {data?.bots.map((b) => (
              <option key={b._id} value={b._id}>
                {b.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Question <input required value={intent.question} onChange={(e) => setIntent({ ...intent, question: e.target.value })} />
        </label>
        <label>
          Answer (microlanguage: "* button", "\split")
          <textarea required value={intent.answer} onChange={(e) => setIntent({ ...intent, answer: e.target.value })} />
        </label>
      </Form>
    </>
  );
}

// The spec's content states (src/modules/kb/status.ts).
const kbStatus = (status: number) => ({ [-1]: 'not queued', 100: 'queued', 200: 'indexing', 300: 'indexed', 400: 'failed' })[status] ?? `status ${status}`;

function KbContentsList({ projectId, namespace }: { projectId: string; namespace: string }) {
  const { token, live } = useSession();
  const { data, error, load, act } = useLoad(useCallback(() => request(KbContents, { project: projectId, namespace }, token), [projectId, namespace, token]));
  useEffect(() => subscribe(live, KbIndexing, { project: projectId, namespace }, (d) => d.kbIndexing.seq, load, load), [live, projectId, namespace, load]);
  const [url, setUrl] = useState('');
  return (
    <>
      <Failure error={error} />
      <ul className="rows" data-testid="kb-contents">
        {data?.kbContents.kbs.map((c) => (
          <li key={c._id}>
            {c.name} · {c.type} · <span data-status={c.status}>{kbStatus(c.status)}</span>
            {c.error ? ` · ${c.error}` : ''}
          </li>
        ))}
        {data?.kbContents.count === 0 && <li>No contents yet.</li>}
      </ul>
      <Form label="Add page" onSubmit={() => act(() => request(AddKbContent, { project: projectId, namespace, name: url, type: 'url', source: url }, token).then(() => setUrl('')))}>
        <label>
          Web page address <input type="url" required value={url} onChange={(e) => setUrl(e.target.value)} />
        </label>
      </Form>
    </>
  );
}

function KbSection({ projectId }: { projectId: string }) {
  const { token } = useSession();
  const { data, error, act } = useLoad(useCallback(() => request(KnowledgeBases, { project: projectId }, token), [projectId, token]));
  const [name, setName] = useState('');
  return (
    <>
      <Failure error={error} />
      {data?.kbNamespaces.map((kb) => (
        <section key={kb._id} className="card">
          <h3>{kb.name}</h3>
          <KbContentsList projectId={projectId} namespace={kb._id} />
        </section>
      ))}
      <Form label="Create knowledge base" onSubmit={() => act(() => request(CreateKb, { project: projectId, name }, token).then(() => setName('')))}>
        <label>
          Name <input required value={name} onChange={(e) => setName(e.target.value)} />
        </label>
      </Form>
    </>
  );
}

function Deliveries({ projectId, id }: { projectId: string; id: string }) {
  const { token } = useSession();
  const { data, error, act } = useLoad(useCallback(() => request(WebhookDeliveries, { project: projectId, id }, token), [projectId, id, token]));
  return (
    <>
      <Failure error={error} />
      <ul className="rows">
        {data?.webhookDeliveries.deliveries.map((d) => (
          <li key={d._id}>
            {d.event} · {d.status} · {d.attempts.length} attempt(s) · {new Date(d.createdAt).toLocaleString()}{' '}
            <button type="button" className="link" onClick={() => act(() => request(Redeliver, { project: projectId, id, delivery: d._id }, token))}>
              Redeliver
            </button>
          </li>
        ))}
        {data?.webhookDeliveries.count === 0 && <li>No deliveries yet.</li>}
      </ul>
    </>
  );
}

function WebhooksSection({ projectId }: { projectId: string }) {
  const { token } = useSession();
  const { data, error, act } = useLoad(useCallback(() => request(Webhooks, { project: projectId }, token), [projectId, token]));
  const [event, setEvent] = useState('request.create');
  const [target, setTarget] = useState('');
  const [secret, setSecret] = useState<string | null>(null);
  return (
    <>
      <Failure error={error} />
      {data?.webhookSubscriptions.map((w) => (
        <section key={w._id} className="card">
          <h3>
            {w.event} → {w.target} {w.enabled ? '' : `(disabled: ${w.disabledReason ?? 'off'})`}
          </h3>
          <Deliveries projectId={projectId} id={w._id} />
        </section>
      ))}
      {secret && (
        <p role="status">
          Signing secret (shown once): <code>{secret}</code>
        </p>
      )}
      <Form
        label="Subscribe"
        onSubmit={() => act(() => request(CreateWebhook, { project: projectId, event, target }, token).then((r) => (setSecret(r.createWebhookSubscription.signingSecret), setTarget(''))))}
      >
        <label>
          Event <input required value={event} onChange={(e) => setEvent(e.target.value)} />
        </label>
        <label>
          Target URL <input type="url" required value={target} onChange={(e) => setTarget(e.target.value)} />
        </label>
      </Form>
    </>
  );
}

function CannedSection({ projectId }: { projectId: string }) {
  const { token } = useSession();
  const { data, error, act } = useLoad(useCallback(() => request(CannedResponses, { project: projectId }, token), [projectId, token]));
  const [title, setTitle] = useState('');
  const [text, setText] = useState('');
  return (
    <>
      <Failure error={error} />
      <ul className="rows">
        {data?.cannedResponses.map((c) => (
          <li key={c._id}>
            <strong>{c.title}</strong>: {c.text}
          </li>
        ))}
      </ul>
      <Form label="Add canned response" onSubmit={() => act(() => request(CreateCanned, { project: projectId, title, text }, token).then(() => (setTitle(''), setText(''))))}>
        <label>
          Title <input required value={title} onChange={(e) => setTitle(e.target.value)} />
        </label>
        <label>
          Text ($recipient_name, $agent_name)
          <textarea required value={text} onChange={(e) => setText(e.target.value)} />
        </label>
      </Form>
    </>
  );
}

export function Manage({ projectId }: { projectId: string }) {
  const [section, setSection] = useState<Section>('Team');
  return (
    <main className="manage">
      <div role="tablist" aria-label="Project settings" className="tabs">
        {sections.map((s) => (
          <button key={s} type="button" role="tab" aria-selected={section === s} onClick={() => setSection(s)}>
            {s}
          </button>
        ))}
      </div>
      <div role="tabpanel" aria-label={section} className="panel">
        <p className="hint">
          Project id: <code>{projectId}</code> · embed the widget with{' '}
          <code>{`<script src="${location.origin}/widget.js" data-project-id="${projectId}" defer></script>`}</code>
        </p>
        {section === 'Team' && <TeamSection projectId={projectId} />}
        {section === 'Departments' && <DepartmentsSection projectId={projectId} />}
        {section === 'Bots' && <BotsSection projectId={projectId} />}
        {section === 'Knowledge bases' && <KbSection projectId={projectId} />}
        {section === 'Webhooks' && <WebhooksSection projectId={projectId} />}
        {section === 'Canned responses' && <CannedSection projectId={projectId} />}
      </div>
    </main>
  );
}
