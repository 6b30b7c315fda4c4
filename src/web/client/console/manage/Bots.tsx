import { useCallback, useState } from 'react';
import { request } from '../../api.js';
import { BotsAndIntents, CreateBot, CreateIntent } from '../manage-operations.js';
import { useSession } from '../session.js';
import { useLoad } from '../use-load.js';
import { BotOptions, Failure, Form, NameField } from './forms.js';

// Settings → Bots: each bot with its intents, a new bot from a template, a new intent.

export function BotsSection({ projectId }: { projectId: string }) {
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
        <NameField value={name} onChange={setName} />
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
            <BotOptions bots={data?.bots} />
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
