import { useCallback, useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { request, subscribe } from '../api.js';
import {
  AddKbContent,
  AddKbPages,
  ChangeRole,
  DeleteKbContent,
  ReadSitemap,
  RemoveTeammate,
  RevokeInvitation,
  SetDepartmentBot,
  BotsAndIntents,
  CreateBot,
  CreateCanned,
  CreateDepartment,
  CreateGroup,
  CreateIntent,
  CreateKb,
  CreateWebhook,
  EnableWebhook,
  DepartmentsAndGroups,
  Invite,
  KbContents,
  KbIndexing,
  KnowledgeBases,
  Redeliver,
  Team,
  PendingInvitations,
  WebhookDeliveries,
  Webhooks,
} from './manage-operations.js';
import { CannedResponses } from './operations.js';
import { KbAnswerStream, KbFeedback } from '../shared/kb.js';
import { useProjectEvents } from './live.js';
import { KbBatchTests, KbGapReport } from './KnowledgeLoop.js';
import { adminSections, navigate, paths, sections as sectionSlugs, type Section } from './router.js';
import { isAdmin, useProjectRole } from './role.js';
import { useSession } from './session.js';
import { useLoad } from './use-load.js';
import { SlaPoliciesSection } from './sla.js';
import { AuditSection } from './Audit.js';
import { RetentionSection } from './Privacy.js';

// The project's set-up: teammates and invitations, departments and groups, bots and intents,
// knowledge bases (indexing live), webhooks (delivery log, redeliver), canned responses and SLA
// policies (sla.tsx); for admins, the retention policy (Privacy.tsx) and the audit log (Audit.tsx).

const sectionNames: Record<Section, string> = {
  team: 'Team',
  departments: 'Departments',
  bots: 'Bots',
  'knowledge-bases': 'Knowledge bases',
  webhooks: 'Webhooks',
  'canned-responses': 'Canned responses',
  'sla-policies': 'SLA policies',
  privacy: 'Privacy and retention',
  audit: 'Audit log',
};

/** Loads with `fetcher` on mount and after every successful action. */
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
  const { token, userId } = useSession();
  // Agents see who is on the team; changing it (roles, removals, invitations) is the admins'.
  const admin = isAdmin(useProjectRole(projectId));
  const { data, error, load, act } = useLoad(useCallback(() => request(Team, { project: projectId }, token), [projectId, token]));
  const invitations = useLoad(
    useCallback(() => (admin ? request(PendingInvitations, { project: projectId }, token) : Promise.resolve(null)), [admin, projectId, token]),
  );
  const reload = () => {
    load();
    invitations.load();
  };
  useProjectEvents(projectId, (name) => name.startsWith('project_user.'), reload);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('agent');
  const [sent, setSent] = useState<string | null>(null);
  return (
    <>
      <Failure error={error} />
      <h3>Teammates</h3>
      <ul className="rows" data-testid="teammates">
        {data?.teammates
          .filter((t) => t.role !== 'guest' && t.role !== 'user')
          .map((t) => (
            <li key={t._id}>
              <span>
                {t.id_user?.fullName || t.id_user?.email} · {t.user_available ? 'available' : 'unavailable'}
              </span>
              {!admin || t.role === 'owner' || t.id_user?._id === userId ? (
                <span className="role">{t.role}</span>
              ) : (
                <>
                  <select
                    aria-label={`Role of ${t.id_user?.fullName || t.id_user?.email}`}
                    value={t.role}
                    onChange={(e) => act(() => request(ChangeRole, { project: projectId, id: t._id, role: e.target.value }, token))}
                  >
                    <option value="agent">agent</option>
                    <option value="admin">admin</option>
                  </select>
                  <button
                    type="button"
                    className="link danger"
                    onClick={() => {
                      if (confirm(`Remove ${t.id_user?.fullName || t.id_user?.email} from the project?`)) void act(() => request(RemoveTeammate, { project: projectId, id: t._id }, token));
                    }}
                  >
                    Remove
                  </button>
                </>
              )}
            </li>
          ))}
      </ul>
      {admin && (
        <>
          <Failure error={invitations.error} />
        <h3>Pending invitations</h3>
        <ul className="rows" data-testid="invitations">
          {invitations.data?.invitations.map((i) => (
            <li key={i._id}>
              <span>
                {i.email} · {i.role}
              </span>
              <button type="button" className="link danger" onClick={() => invitations.act(() => request(RevokeInvitation, { project: projectId, id: i._id }, token))}>
                Withdraw
              </button>
            </li>
          ))}
          {invitations.data?.invitations.length === 0 && <li>None.</li>}
        </ul>
        {sent && <p role="status">Invitation e-mailed to {sent}.</p>}
        <Form label="Invite" onSubmit={() => invitations.act(() => request(Invite, { project: projectId, email, role }, token).then(() => (setSent(email), setEmail(''))))}>
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
      )}
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
            <span>
              {d.name}
              {d.default ? ' (default)' : ''} · routing {d.routing ?? 'pooled'}
              {d.id_bot ? ` · bot ${botName(d.id_bot) ?? d.id_bot}` : ''}
            </span>
            <label className="inline">
              Bot of {d.name}
              <select
                value={d.id_bot ?? ''}
                onChange={(e) => act(() => request(SetDepartmentBot, { project: projectId, id: d._id, bot: e.target.value || null }, token))}
              >
                <option value="">no bot</option>
                {data.bots.map((b) => (
                  <option key={b._id} value={b._id}>
                    {b.name}
                  </option>
                ))}
              </select>
            </label>
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

// The spec's content states (src/modules/kb/indexing/status.ts).
const kbStatus = (status: number) => ({ [-1]: 'not queued', 100: 'queued', 200: 'indexing', 300: 'indexed', 400: 'failed' })[status] ?? `status ${status}`;

const contentKinds = [
  { id: 'text', label: 'Text' },
  { id: 'faq', label: 'FAQ' },
  { id: 'file', label: 'PDF or DOCX file' },
  { id: 'url', label: 'Web page' },
  { id: 'sitemap', label: 'Sitemap' },
] as const;
type ContentKind = (typeof contentKinds)[number]['id'];

/** A PDF or DOCX through the REST upload (multipart), the one route the GraphQL API has no field for. */
async function uploadKbFile(token: string, projectId: string, namespace: string, file: File) {
  const form = new FormData();
  form.set('namespace', namespace);
  form.set('name', file.name);
  form.set('type', file.name.toLowerCase().endsWith('.docx') ? 'docx' : 'pdf');
  form.set('file', file);
  const res = await fetch(`/v3/${encodeURIComponent(projectId)}/kb`, { method: 'POST', headers: { authorization: token }, body: form });
  if (res.status !== 200) {
    const body = (await res.json().catch(() => ({}))) as { message?: string; error?: string };
    throw new Error(body.message ?? body.error ?? `upload failed (${res.status})`);
  }
}

function AddKbContentForm({ projectId, namespace, act }: { projectId: string; namespace: string; act: (run: () => Promise<unknown>) => Promise<void> }) {
  const { token } = useSession();
  const [kind, setKind] = useState<ContentKind>('text');
  const [name, setName] = useState('');
  const [text, setText] = useState('');
  const [question, setQuestion] = useState('');
  const [url, setUrl] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [pages, setPages] = useState<string[] | null>(null);
  const reset = () => (setName(''), setText(''), setQuestion(''), setUrl(''), setFile(null), setPages(null));
  const add = () =>
    act(async () => {
      if (kind === 'text') await request(AddKbContent, { project: projectId, namespace, name, type: 'text', content: text }, token);
      if (kind === 'faq') await request(AddKbContent, { project: projectId, namespace, name: question, type: 'faq', content: `${question}\n${text}` }, token);
      if (kind === 'url') await request(AddKbContent, { project: projectId, namespace, name: url, type: 'url', source: url }, token);
      if (kind === 'file' && file) await uploadKbFile(token, projectId, namespace, file);
      if (kind === 'sitemap') {
        if (!pages) {
          const r = await request(ReadSitemap, { project: projectId, sitemap: url }, token);
          setPages(r.readKbSitemap.sites);
          return;
        }
        await request(AddKbPages, { project: projectId, namespace, list: pages }, token);
      }
      reset();
    });
  return (
    <form
      className="inline-form kb-add"
      aria-label="Add content"
      onSubmit={(e) => {
        e.preventDefault();
        void add();
      }}
    >
      <fieldset className="kinds">
        <legend>Add content</legend>
        {contentKinds.map((k) => (
          <label key={k.id} className="inline">
            <input type="radio" name={`kind-${namespace}`} value={k.id} checked={kind === k.id} onChange={() => (setKind(k.id), setPages(null))} />
            {k.label}
          </label>
        ))}
      </fieldset>
      {kind === 'text' && (
        <>
          <label>
            Title <input required value={name} onChange={(e) => setName(e.target.value)} />
          </label>
          <label>
            Text <textarea required rows={4} value={text} onChange={(e) => setText(e.target.value)} />
          </label>
        </>
      )}
      {kind === 'faq' && (
        <>
          <label>
            Question <input required value={question} onChange={(e) => setQuestion(e.target.value)} />
          </label>
          <label>
            Answer <textarea required rows={3} value={text} onChange={(e) => setText(e.target.value)} />
          </label>
        </>
      )}
      {kind === 'file' && (
        <label>
          File (PDF or DOCX)
          <input type="file" required accept=".pdf,.docx,application/pdf,application/vnd.openxmlformats-officedocument.wordprocessingml.document" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
        </label>
      )}
      {(kind === 'url' || kind === 'sitemap') && (
        <label>
          {kind === 'url' ? 'Web page address' : 'Sitemap address'}
          <input type="url" required value={url} onChange={(e) => (setUrl(e.target.value), setPages(null))} />
        </label>
      )}
      {pages && <p role="status">The sitemap lists {pages.length} page(s).</p>}
      <button type="submit">{kind === 'sitemap' ? (pages ? `Add ${pages.length} page(s)` : 'Read the sitemap') : kind === 'file' ? 'Upload' : 'Add'}</button>
    </form>
  );
}

/**
 * Asks the knowledge base a question with its preview settings (changeable here), as a bot would:
 * the answer streams in as it is written (kbAnswerStream). The agent can then confirm the content
 * that answered (its question becomes a learned phrasing) or reject it.
 */
function KbTestBox({ projectId, namespace, settings }: { projectId: string; namespace: string; settings: { top_k: number; temperature: number; model: string } }) {
  const { token, live } = useSession();
  const [question, setQuestion] = useState('');
  const [asked, setAsked] = useState('');
  const [topK, setTopK] = useState(settings.top_k);
  const [temperature, setTemperature] = useState(settings.temperature);
  const [text, setText] = useState('');
  const [result, setResult] = useState<{ success: boolean; answer: string; id?: string | null; sources: string[]; error_message?: string | null } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [verdict, setVerdict] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const stop = useRef<(() => void) | null>(null);
  useEffect(() => () => stop.current?.(), []);
  function ask() {
    stop.current?.();
    setBusy(true);
    setError(null);
    setText('');
    setResult(null);
    setVerdict(null);
    setAsked(question);
    stop.current = live.subscribe<{ kbAnswerStream: { delta?: string | null; done: boolean; result?: NonNullable<typeof result> | null } }>(
      { query: KbAnswerStream.toString(), variables: { project: projectId, namespace, question, topK, temperature } },
      {
        next: ({ data, errors }) => {
          if (errors?.length) return setError(errors[0].message);
          const piece = data?.kbAnswerStream;
          if (!piece) return;
          if (piece.delta) setText((t) => t + piece.delta);
          if (piece.done && piece.result) setResult(piece.result);
        },
        error: (e) => (setError(e instanceof Error ? e.message : 'the answer stopped'), setBusy(false)),
        complete: () => setBusy(false),
      },
    );
  }
  async function judge(helpful: boolean) {
    if (!result?.id) return;
    try {
      await request(KbFeedback, { project: projectId, namespace, question: asked, id: result.id, helpful }, token);
      setVerdict(helpful ? 'Saved: this question now finds this content.' : 'Noted: this content will not answer this question first again.');
    } catch (e) {
      setError((e as Error).message);
    }
  }
  return (
    <form
      className="inline-form kb-test"
      aria-label="Ask a test question"
      onSubmit={(e) => {
        e.preventDefault();
        ask();
      }}
    >
      <label>
        Test question <input required value={question} onChange={(e) => setQuestion(e.target.value)} />
      </label>
      <label className="narrow">
        Chunks (top_k) <input type="number" min={1} max={50} value={topK} onChange={(e) => setTopK(Number(e.target.value))} />
      </label>
      <label className="narrow">
        Temperature <input type="number" min={0} max={2} step={0.1} value={temperature} onChange={(e) => setTemperature(Number(e.target.value))} />
      </label>
      <button type="submit" disabled={busy}>
        {busy ? 'Asking…' : 'Ask'}
      </button>
      <Failure error={error} />
      {(text || result) && (
        <div className="kb-answer" role="status" aria-label="Answer" aria-busy={busy}>
          {result && !result.success ? <p>No answer: {result.error_message ?? 'the knowledge base has nothing on this.'}</p> : <p>{result?.answer ?? text}</p>}
          {result && result.sources.length > 0 && <p className="sources">Sources: {result.sources.join(', ')}</p>}
          {result?.success && result.id && !verdict && (
            <p className="verdict">
              <button type="button" className="secondary" onClick={() => void judge(true)}>
                👍 Right answer
              </button>{' '}
              <button type="button" className="secondary" onClick={() => void judge(false)}>
                👎 Wrong answer
              </button>
            </p>
          )}
          {verdict && <p className="sources">{verdict}</p>}
        </div>
      )}
    </form>
  );
}

function KbContentsList({ projectId, namespace }: { projectId: string; namespace: string }) {
  const { token, live } = useSession();
  const { data, error, load, act } = useLoad(useCallback(() => request(KbContents, { project: projectId, namespace }, token), [projectId, namespace, token]));
  useEffect(() => subscribe(live, KbIndexing, { project: projectId, namespace }, (d) => d.kbIndexing.seq, load, load), [live, projectId, namespace, load]);
  return (
    <>
      <Failure error={error} />
      <ul className="rows" data-testid="kb-contents">
        {data?.kbContents.kbs.map((c) => (
          <li key={c._id}>
            <span>
              {c.name} · {c.type} · <span data-status={c.status} className={`status s${c.status}`}>{kbStatus(c.status)}</span>
              {c.error ? <span className="reason"> · {c.error}</span> : null}
            </span>
            <button type="button" className="link danger" aria-label={`Delete ${c.name}`} onClick={() => act(() => request(DeleteKbContent, { project: projectId, id: c._id }, token))}>
              Delete
            </button>
          </li>
        ))}
        {data?.kbContents.count === 0 && <li>No contents yet.</li>}
      </ul>
      <AddKbContentForm projectId={projectId} namespace={namespace} act={act} />
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
      <KbGapReport projectId={projectId} />
      {data?.kbNamespaces.map((kb) => (
        <section key={kb._id} className="card" aria-label={kb.name}>
          <h3>{kb.name}</h3>
          <KbContentsList projectId={projectId} namespace={kb._id} />
          <KbTestBox projectId={projectId} namespace={kb._id} settings={kb.preview_settings} />
          <KbBatchTests projectId={projectId} namespace={kb._id} />
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

/** The delivery log, read again every two seconds while it is on screen (attempts are not events). */
function Deliveries({ projectId, id }: { projectId: string; id: string }) {
  const { token } = useSession();
  const { data, error, load, act } = useLoad(useCallback(() => request(WebhookDeliveries, { project: projectId, id }, token), [projectId, id, token]));
  const [outcome, setOutcome] = useState<string | null>(null);
  useEffect(() => {
    const timer = setInterval(load, 2000);
    return () => clearInterval(timer);
  }, [load]);
  return (
    <>
      <Failure error={error} />
      {outcome && <p role="status">{outcome}</p>}
      <ul className="rows deliveries" aria-label="Deliveries">
        {data?.webhookDeliveries.deliveries.map((d) => (
          <li key={d._id} className="delivery">
            <div>
              <strong>{d.event}</strong> · <span className={`status ${d.status}`}>{d.status}</span> · {new Date(d.createdAt).toLocaleString()}
              {d.nextAttemptAt && d.status === 'pending' ? ` · next try ${new Date(d.nextAttemptAt).toLocaleTimeString()}` : ''}
              <ol className="attempts" aria-label="Attempts">
                {d.attempts.map((a, k) => (
                  <li key={k}>
                    {new Date(a.at).toLocaleTimeString()} · {a.redelivery ? 'redelivery' : `attempt ${a.attempt}`} ·{' '}
                    {a.statusCode != null ? `HTTP ${a.statusCode}` : 'no answer'}
                    {a.error ? <span className="reason"> · {a.error}</span> : null}
                  </li>
                ))}
              </ol>
            </div>
            <button
              type="button"
              className="link"
              onClick={() =>
                act(async () => {
                  setOutcome('Redelivering…');
                  const r = await request(Redeliver, { project: projectId, id, delivery: d._id }, token);
                  const last = r.redeliverWebhook.attempts[r.redeliverWebhook.attempts.length - 1];
                  setOutcome(
                    last?.redelivery
                      ? `Redelivered: ${last.statusCode != null ? `HTTP ${last.statusCode}` : 'no answer'}${last.error ? ` (${last.error})` : ''}`
                      : `Redelivery queued (${r.redeliverWebhook.status})`,
                  );
                })
              }
            >
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
            {w.event} → {w.target}
          </h3>
          {!w.enabled && (
            <p role="status" className="error">
              Disabled{w.disabledAt ? ` since ${new Date(w.disabledAt).toLocaleString()}` : ''}: {w.disabledReason ?? 'turned off'}.{' '}
              <button type="button" onClick={() => act(() => request(EnableWebhook, { project: projectId, id: w._id }, token))}>
                Re-enable
              </button>
            </p>
          )}
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

export function Manage({ projectId, section }: { projectId: string; section: Section }) {
  // The admins' tabs are not offered to agents (the API would refuse them anyway).
  const role = useProjectRole(projectId);
  const shown = sectionSlugs.filter((s) => isAdmin(role) || !adminSections.includes(s));
  return (
    <main className="manage">
      <div role="tablist" aria-label="Project settings" className="tabs">
        {shown.map((s) => (
          <button key={s} type="button" role="tab" aria-selected={section === s} onClick={() => navigate(paths.settings(projectId, s))}>
            {sectionNames[s]}
          </button>
        ))}
      </div>
      <div role="tabpanel" aria-label={sectionNames[section]} className="panel">
        <p className="hint">
          Project id: <code>{projectId}</code> · embed the widget with{' '}
          <code>{`<script src="${location.origin}/widget.js" data-project-id="${projectId}" defer></script>`}</code>
        </p>
        {section === 'team' && <TeamSection projectId={projectId} />}
        {section === 'departments' && <DepartmentsSection projectId={projectId} />}
        {section === 'bots' && <BotsSection projectId={projectId} />}
        {section === 'knowledge-bases' && <KbSection projectId={projectId} />}
        {section === 'webhooks' && <WebhooksSection projectId={projectId} />}
        {section === 'canned-responses' && <CannedSection projectId={projectId} />}
        {section === 'sla-policies' && <SlaPoliciesSection projectId={projectId} />}
        {section === 'privacy' && role !== null && (isAdmin(role) ? <RetentionSection projectId={projectId} /> : <p role="alert" className="error">Privacy and retention are for the project's admins and owner.</p>)}
        {section === 'audit' && role !== null && (isAdmin(role) ? <AuditSection projectId={projectId} /> : <p role="alert" className="error">The audit log is for the project's admins and owner.</p>)}
      </div>
    </main>
  );
}
