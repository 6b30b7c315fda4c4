import { useState } from 'react';
import { request } from '../../api.js';
import { AddKbContent, AddKbPages, ReadSitemap } from '../manage-operations.js';
import { useSession } from '../session.js';

// Adding content to a knowledge base: text, an FAQ, a PDF or DOCX file, a web page or a sitemap's pages.

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

export function AddKbContentForm({ projectId, namespace, act }: { projectId: string; namespace: string; act: (run: () => Promise<unknown>) => Promise<void> }) {
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
