import type { User } from '../../generated/prisma/client.js';

/**
 * The account-shaped view of an actor that is not a person (a bot, an integration key), which
 * principals carry so that code reading `principal.user` sees its name: no e-mail, no password,
 * never anonymous, the actor's own dates and revision.
 */
export function actorAccount(actor: { id: string; name: string; createdAt: Date; updatedAt: Date; v: number }): User {
  return {
    id: actor.id,
    email: null,
    password: null,
    firstname: actor.name,
    lastname: '',
    emailverified: false,
    anonymous: false,
    deletedAt: null,
    externalId: null,
    externalProject: null,
    tokenVersion: 0,
    createdAt: actor.createdAt,
    updatedAt: actor.updatedAt,
    v: actor.v,
  };
}
