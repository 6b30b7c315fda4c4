import { useCallback, useState } from 'react';
import { request } from '../../api.js';
import { ChangeRole, Invite, PendingInvitations, RemoveTeammate, RevokeInvitation, Team } from '../manage-operations.js';
import { useProjectEvents } from '../live.js';
import { isAdmin, useProjectRole } from '../role.js';
import { useSession } from '../session.js';
import { useLoad } from '../use-load.js';
import { Failure, Form } from './forms.js';

// Settings → Team: who is on the project and their roles; admins also change roles, remove
// teammates and invite (pending invitations, withdrawn here).

export function TeamSection({ projectId }: { projectId: string }) {
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
