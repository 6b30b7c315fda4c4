import { createHmac, randomBytes, randomUUID } from 'node:crypto';

// Standard Webhooks (standardwebhooks.com): secrets are `whsec_` + base64 of 24 random bytes, and
// each message is signed as `v1,` + base64(HMAC-SHA256(key, `${id}.${timestamp}.${body}`)).
// Several signatures are space-separated, so during a rotation receivers holding either secret verify.

const secretPrefix = 'whsec_';

export function newSecret(): string {
  return `${secretPrefix}${randomBytes(24).toString('base64')}`;
}

/**
 * The value of the legacy `x-hook-secret` header: a random UUID, as Tiledesk's were. It is sent in
 * the clear with every delivery, so it is never a signing key nor derived from one.
 */
export function newHookSecret(): string {
  return randomUUID();
}

function key(secret: string): Buffer {
  return Buffer.from(secret.startsWith(secretPrefix) ? secret.slice(secretPrefix.length) : secret, 'base64');
}

export function sign(secret: string, id: string, timestampSeconds: number, body: string): string {
  const digest = createHmac('sha256', key(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${digest}`;
}

/** The `webhook-*` headers of one attempt, signed with every secret currently valid. */
export function signedHeaders(secrets: string[], id: string, timestampSeconds: number, body: string): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': secrets.map((s) => sign(s, id, timestampSeconds, body)).join(' '),
  };
}
