import type { ProjectUser, User } from '../../generated/prisma/client.js';

/** A membership with its user: what the teammate service and invitations hand around. */
export type TeammateRecord = ProjectUser & { user: User };
