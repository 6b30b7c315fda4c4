import { useEffect, useState } from 'react';
import { request } from '../api.js';
import { Projects } from './operations.js';
import { useSession } from './session.js';

export type ProjectRole = string;

/** The signed-in account's role in the project (null until known): what the console offers follows it, the API enforces it. */
export function useProjectRole(projectId: string): ProjectRole | null {
  const { token } = useSession();
  const [role, setRole] = useState<ProjectRole | null>(null);
  useEffect(() => {
    let current = true;
    request(Projects, {}, token).then(
      (r) => current && setRole(r.projects.find((p) => p.id_project?._id === projectId)?.role ?? null),
      () => {},
    );
    return () => {
      current = false;
    };
  }, [projectId, token]);
  return role;
}

export const isAdmin = (role: ProjectRole | null) => role === 'owner' || role === 'admin';
