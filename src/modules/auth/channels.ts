// Bus channels that tell every node a cached account or membership is stale: the auth and
// teammates services publish them, caches and live subscriptions (realtime/live-access.ts) listen.

/** An account changed or was deleted: `{userId}`. */
export const userChannel = 'users.changed';
/** A membership changed: `{projectId, userId}`; cached role checks drop it. */
export const membershipChannel = 'memberships.changed';
