import type { Role } from '../modules/teammates/roles.js';

/**
 * `ownerWhileDisabled`: the project's owner passes while the project is disabled (reading it and
 * enabling it again); every other field refuses everyone in a disabled project.
 *
 * Field auth: the caller needs at least `min` in the project named by the `project_id` argument.
 * `botsInRequest` also lets a bot token through when the bot takes part in the request named
 * by the `request_id` argument; every other field refuses bot tokens.
 */
export const minRole =
  (min: Role, options: { botsInRequest?: boolean; ownerWhileDisabled?: boolean } = {}) =>
  (_parent: unknown, args: Record<string, unknown>) => ({
    projectRole: {
      projectId: String(args.project_id),
      min,
      ...(options.botsInRequest ? { botRequestId: String(args.request_id) } : {}),
      ...(options.ownerWhileDisabled ? { ownerWhileDisabled: true } : {}),
    },
  });
