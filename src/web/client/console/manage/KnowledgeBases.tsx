import { useCallback, useEffect, useState } from 'react';
import { request, subscribe } from '../../api.js';
import { CreateKb, DeleteKbContent, KbContents, KbIndexing, KnowledgeBases } from '../manage-operations.js';
import { KbBatchTests, KbGapReport } from '../KnowledgeLoop.js';
import { useSession } from '../session.js';
import { useLoad } from '../use-load.js';
import { Failure, Form, NameField } from './forms.js';
import { AddKbContentForm } from './KbContentForm.js';
import { KbTestBox } from './KbTestBox.js';

// Settings → Knowledge bases: the gap report, then each knowledge base with its contents (indexing
// live), a test question and batch tests; a new knowledge base.

// The spec's content states (src/modules/kb/indexing/status.ts).
const kbStatus = (status: number) => ({ [-1]: 'not queued', 100: 'queued', 200: 'indexing', 300: 'indexed', 400: 'failed' })[status] ?? `status ${status}`;

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

export function KbSection({ projectId }: { projectId: string }) {
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
        <NameField value={name} onChange={setName} />
      </Form>
    </>
  );
}
