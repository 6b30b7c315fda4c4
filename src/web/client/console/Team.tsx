import { useCallback, useEffect, useState } from 'react';
import { request, subscribe } from '../api.js';
import type { ConsoleTeamQuery } from '../gql/graphql.js';
import { Presence, SetAvailable, Team as TeamQuery } from './operations.js';
import { useSession } from './session.js';

type Teammate = NonNullable<ConsoleTeamQuery['teammates']>[number];

/** The caller's availability switch and the team's presence, live. */
export function Team({ projectId }: { projectId: string }) {
  const { token, live, userId } = useSession();
  const [team, setTeam] = useState<Teammate[]>([]);
  const load = useCallback(() => {
    request(TeamQuery, { project: projectId }, token).then((r) => setTeam(r.teammates), () => {});
  }, [projectId, token]);
  useEffect(load, [load]);
  useEffect(() => subscribe(live, Presence, { project: projectId }, (d) => d.teammatePresence.seq, load, load), [live, projectId, load]);

  const me = team.find((t) => t.id_user?._id === userId);
  async function toggle() {
    if (!me) return;
    await request(SetAvailable, { project: projectId, available: !me.user_available }, token);
    load();
  }

  return (
    <section className="team" aria-label="Team">
      {me && (
        <label className="switch">
          <input type="checkbox" role="switch" checked={!!me.user_available} onChange={() => void toggle()} />
          {me.user_available ? 'Available' : 'Unavailable'}
        </label>
      )}
      <h3>Team</h3>
      <ul>
        {team
          .filter((t) => t.role !== 'guest' && t.role !== 'user')
          .map((t) => (
            <li key={t._id}>
              <span className={`dot ${t.presence.status === 'online' ? 'online' : 'offline'}`} aria-hidden="true" />
              {t.id_user?.fullName || t.id_user?.email} <span className="role">({t.role})</span>
              <span className="visually-hidden">{t.presence.status}</span>
              {t.user_available ? '' : ' · unavailable'}
            </li>
          ))}
      </ul>
    </section>
  );
}
