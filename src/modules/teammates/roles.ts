// Roles, strongest first: owner > admin > agent > user > guest.
export const roles = ['owner', 'admin', 'agent', 'user', 'guest'] as const;
export type Role = (typeof roles)[number];

const rank: Record<Role, number> = { owner: 5, admin: 4, agent: 3, user: 2, guest: 1 };

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (roles as readonly string[]).includes(value);
}

export function roleAtLeast(role: string, min: Role): boolean {
  return isRole(role) && rank[role] >= rank[min];
}

/** The team's roles (agent or above): they serve requests; users and guests are whom they serve. */
export const teamRoles: readonly Role[] = roles.filter((role) => rank[role] >= rank.agent);
