import { useCallback, useEffect, useState } from 'react';
import { request, subscribe } from '../api.js';
import type { ConsoleTeamQuery } from '../gql/graphql.js';
import { useProjectEvents } from './live.js';
import { Presence, SetAvailable, Team as TeamQuery } from './operations.js';
import { useSession } from './session.js';

type Teammate = NonNullable<ConsoleTeamQuery['teammates']>[number];

/** Any change of a teammate: availability, role, name, presence, joining or leaving. */
const changesTeam = (name: string) => name.startsWith('project_user.');

/** The caller's availability switch and the team's presence and availability, live. */
export function Team({ projectId }: { projectId: string }) {
  const { token, live, userId } = useSession();
  const [team, setTeam] = useState<Teammate[]>([]);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    request(TeamQuery, { project: projectId }, token).then((r) => setTeam(r.teammates), (e: Error) => setError(e.message));
  }, [projectId, token]);
  useEffect(load, [load]);
  useEffect(() => subscribe(live, Presence, { project: projectId }, (d) => d.teammatePresence.seq, load, load), [live, projectId, load]);
  useProjectEvents(projectId, changesTeam, load);

  const me = team.find((t) => t.id_user?._id === userId);
  async function toggle() {
    if (!me) return;
    const available = !me.user_available;
    // Shown at once; the answer (or the event) confirms it.
    setTeam((all) => all.map((t) => (t._id === me._id ? { ...t, user_available: available } : t)));
    try {
      await request(SetAvailable, { project: projectId, available }, token);
      setError(null);
    } catch (e) {
      setError((e as Error).message);
    }
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
      {error && <p role="alert" className="error">{error}</p>}
      <h3>Team</h3>
      <ul data-testid="team">
        {team
          .filter((t) => t.role !== 'guest' && t.role !== 'user')
          .map((t) => {
            const online = t.presence.status === 'online';
            return (
              <li key={t._id} data-teammate={t.id_user?._id}>
                <span className={`dot ${online ? (t.user_available ? 'online' : 'busy') : 'offline'}`} aria-hidden="true" />
                {t.id_user?.fullName || t.id_user?.email} <span className="role">({t.role})</span>
                <span className="state">
                  {online ? ' online' : ' offline'}
                  {t.user_available ? ' · available' : ' · unavailable'}
                </span>
              </li>
            );
          })}
      </ul>
    </section>
  );
}
