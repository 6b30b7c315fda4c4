import { createHmac, createPrivateKey, createPublicKey, randomBytes, randomUUID, sign as signWithKey, type KeyObject } from 'node:crypto';

// Standard Webhooks (standardwebhooks.com): secrets are `whsec_` + base64 of 24 random bytes, and
// each message is signed as `v1,` + base64(HMAC-SHA256(key, `${id}.${timestamp}.${body}`)).
// Several signatures are space-separated, so during a rotation receivers holding either secret verify.
//
// A subscription made with `signing: "ed25519"` signs asymmetrically instead (Standard Webhooks
// `v1a`): its key is `whsk_` + base64 of the 32-byte ed25519 seed, kept where the HMAC secret would
// be (so rotation works the same), and receivers verify with its public key, `whpk_` + base64 of
// the 32 raw bytes, holding no secret. Each message is signed as `v1a,` + base64(ed25519 signature
// of `${id}.${timestamp}.${body}`).

const secretPrefix = 'whsec_';
const privateKeyPrefix = 'whsk_';
const publicKeyPrefix = 'whpk_';
/** PKCS#8 DER of an ed25519 private key, before its 32-byte seed. */
const pkcs8Ed25519 = Buffer.from('302e020100300506032b657004220420', 'hex');

export type SigningScheme = 'hmac' | 'ed25519';

/** A new signing key of the scheme: an HMAC secret, or an ed25519 private key. */
export function newSecret(scheme: SigningScheme = 'hmac'): string {
  if (scheme === 'ed25519') return `${privateKeyPrefix}${randomBytes(32).toString('base64')}`;
  return `${secretPrefix}${randomBytes(24).toString('base64')}`;
}

export function schemeOf(secret: string): SigningScheme {
  return secret.startsWith(privateKeyPrefix) ? 'ed25519' : 'hmac';
}

const privateKeys = new Map<string, KeyObject>();
const publicKeys = new Map<string, string>();

function privateKey(secret: string): KeyObject {
  let key = privateKeys.get(secret);
  if (!key) {
    const seed = Buffer.from(secret.slice(privateKeyPrefix.length), 'base64');
    key = createPrivateKey({ key: Buffer.concat([pkcs8Ed25519, seed]), format: 'der', type: 'pkcs8' });
    if (privateKeys.size >= 1000) privateKeys.clear();
    privateKeys.set(secret, key);
  }
  return key;
}

/** The public key (`whpk_...`) of an ed25519 signing key; null for an HMAC secret. */
export function publicKeyOf(secret: string): string | null {
  if (schemeOf(secret) !== 'ed25519') return null;
  let key = publicKeys.get(secret);
  if (!key) {
    const jwk = createPublicKey(privateKey(secret)).export({ format: 'jwk' });
    key = `${publicKeyPrefix}${Buffer.from(jwk.x!, 'base64url').toString('base64')}`;
    if (publicKeys.size >= 1000) publicKeys.clear();
    publicKeys.set(secret, key);
  }
  return key;
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
  if (schemeOf(secret) === 'ed25519') {
    return `v1a,${signWithKey(null, Buffer.from(`${id}.${timestampSeconds}.${body}`), privateKey(secret)).toString('base64')}`;
  }
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
