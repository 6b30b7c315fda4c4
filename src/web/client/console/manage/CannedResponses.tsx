import { useCallback, useState } from 'react';
import { request } from '../../api.js';
import { CreateCanned } from '../manage-operations.js';
import { CannedResponses } from '../operations.js';
import { useSession } from '../session.js';
import { useLoad } from '../use-load.js';
import { Failure, Form } from './forms.js';

// Settings → Canned responses: the list and a new one (placeholders filled in when inserted).

export function CannedSection({ projectId }: { projectId: string }) {
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
