import type { Role } from '../modules/teammates/roles.js';

/** Field auth: the caller needs at least `min` in the project named by the `project_id` argument. */
export const minRole =
  (min: Role) =>
  (_parent: unknown, args: Record<string, unknown>) => ({
    projectRole: { projectId: String(args.project_id), min },
  });
