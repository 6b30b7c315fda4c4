import jwt from 'jsonwebtoken';
import { z } from 'zod';
import { badInput, parseInput, unauthenticated } from '../../errors.js';
import { CredentialRejected } from './throttle.js';

// Custom tokens: a project's own site signs its users in with the project's secret
// (POST /v3/:project_id/keys/generate). The claims say which project (`aud`) and that the
// subject is one of the site's users (`sub: userexternal`); the payload describes the user.

const audiencePrefix = 'https://tiledesk.com/projects/';
const externalSubject = 'userexternal';

/** The audience a custom token for a project carries. */
const customTokenAudience = (projectId: string) => `${audiencePrefix}${projectId}`;

/** A custom token whose claims have the right shape; its signature is not checked yet. */
export interface ClaimedCustomToken {
  token: string;
  projectId: string;
}

/**
 * Reads the token from the Authorization header (`JWT <token>`, or `Bearer`) and checks the
 * shape of its claims before anything is looked up: a token that is no JWT is 401, claims of
 * the wrong shape are 400 naming the claim.
 */
export function readCustomToken(header: string | null): ClaimedCustomToken {
  if (!header) throw unauthenticated('a custom token is required in the Authorization header (JWT <token>)');
  const [scheme, ...rest] = header.trim().split(/\s+/);
  const token = rest.join(' ');
  if (!token || !['jwt', 'bearer'].includes(scheme.toLowerCase())) {
    throw unauthenticated('the Authorization header must be JWT <custom token>');
  }
  const claims = decodeUnverified(token);
  if (!claims) throw unauthenticated('invalid custom token');
  if (claims.aud === undefined) throw badInput('aud', 'aud: is required');
  const projectId = typeof claims.aud === 'string' && claims.aud.startsWith(audiencePrefix) ? claims.aud.slice(audiencePrefix.length) : '';
  if (!/^[^/\s]+$/.test(projectId)) throw badInput('aud', `aud: must be ${audiencePrefix}<project_id>`);
  if (claims.sub === undefined) throw badInput('sub', 'sub: is required');
  if (claims.sub !== externalSubject) throw badInput('sub', `sub: must be ${externalSubject}`);
  return { token, projectId };
}

function decodeUnverified(token: string): jwt.JwtPayload | null {
  try {
    const claims = jwt.decode(token, { json: true });
    return claims && typeof claims === 'object' && !Array.isArray(claims) ? claims : null;
  } catch {
    return null;
  }
}

const externalUserClaims = z.object({
  _id: z.union([z.string(), z.number()]).transform(String).pipe(z.string().trim().min(1, 'must not be empty').max(200)),
  firstname: z.string().trim().max(100).optional(),
  lastname: z.string().trim().max(100).optional(),
  email: z.string().trim().toLowerCase().email('must be a valid e-mail address').optional(),
});

export type ExternalUserClaims = z.infer<typeof externalUserClaims>;

/**
 * Verifies the signature with the project's secret; the user it describes, or 401 / 400. A token
 * not signed with it is a failed credential check (the throttle counts it); one signed with it
 * but outside its validity (`nbf`, `exp`, give or take `clockToleranceSeconds` of clock skew) is
 * not: the site's secret is right, its clock or its token's age is not.
 */
export function verifyCustomToken({ token, projectId }: ClaimedCustomToken, secret: string, clockToleranceSeconds = 0): ExternalUserClaims {
  let claims: jwt.JwtPayload;
  try {
    claims = jwt.verify(token, secret, {
      algorithms: ['HS256'],
      audience: customTokenAudience(projectId),
      subject: externalSubject,
      clockTolerance: clockToleranceSeconds,
    }) as jwt.JwtPayload;
  } catch (error) {
    const now = Math.floor(Date.now() / 1000);
    if (error instanceof jwt.TokenExpiredError) {
      const ago = now - Math.floor(error.expiredAt.getTime() / 1000);
      throw unauthenticated(`custom token expired ${ago} s ago (exp), past the ${clockToleranceSeconds} s allowed for clock skew; sign a new one`);
    }
    if (error instanceof jwt.NotBeforeError) {
      const ahead = Math.floor(error.date.getTime() / 1000) - now;
      throw unauthenticated(
        `custom token not valid yet: its nbf is ${ahead} s ahead of the server's clock, more than the ${clockToleranceSeconds} s allowed for clock skew; check the signing server's clock`,
      );
    }
    throw new CredentialRejected('custom token not signed with the project\'s secret');
  }
  return parseInput(externalUserClaims, claims);
}
