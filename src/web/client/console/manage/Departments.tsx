import { useCallback, useState } from 'react';
import { request } from '../../api.js';
import { CreateDepartment, CreateGroup, DepartmentsAndGroups, SetDepartmentBot } from '../manage-operations.js';
import { useSession } from '../session.js';
import { useLoad } from '../use-load.js';
import { BotOptions, Failure, Form, NameField } from './forms.js';

// Settings → Departments: departments (with the bot that answers first in each) and groups.

export function DepartmentsSection({ projectId }: { projectId: string }) {
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
                <BotOptions bots={data.bots} />
              </select>
            </label>
          </li>
        ))}
      </ul>
      <Form label="Add department" onSubmit={() => act(() => request(CreateDepartment, { project: projectId, name, routing: 'assigned', bot: bot || undefined }, token).then(() => setName('')))}>
        <NameField value={name} onChange={setName} />
        <label>
          Bot
          <select value={bot} onChange={(e) => setBot(e.target.value)}>
            <option value="">none</option>
            <BotOptions bots={data?.bots} />
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
        <NameField value={group} onChange={setGroup} />
      </Form>
    </>
  );
}
