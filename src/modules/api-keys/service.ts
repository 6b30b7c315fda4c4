import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { Config } from '../../config.js';
import { forbidden, notFound, parseInput, unauthenticated } from '../../errors.js';
import type { Db } from '../../infra/database.js';
import type { EventLog } from '../../infra/event-log.js';
import type { Limiters } from '../../infra/rate-limit.js';
import { TtlCache } from '../../infra/ttl-cache.js';
import type { ApiKey } from '../../generated/prisma/client.js';
import { actorAccount } from '../auth/actor-account.js';
import type { ApiKeyAuthenticator, Principal } from '../auth/principal.js';
import { CredentialRejected, CredentialThrottle } from '../auth/throttle.js';
import type { TeammateRecord } from '../teammates/record.js';

// Project API keys for integrations: `Authorization: Bearer spk_<id>_<secret>`. A key acts as a
// member of its role in its project and nowhere else; its principal id (`apikey_<id>`) is the
// author of everything it writes. Only the SHA-256 of a key is stored (the secret is 256 random
// bits, so a fast digest is as strong as a slow one); the key is shown once, at creation.

/** Bus channel: a key was revoked (`{id}`); every node drops it from its cache at once. */
export const apiKeyRevokedChannel = 'apikeys.revoked';

const keyPrefix = 'spk_';
const keyPattern = /^spk_([a-z0-9]{20,40})_([A-Za-z0-9_-]{43})$/;

export const apiKeyAuthor = (keyId: string) => `apikey_${keyId}`;

const createInput = z.object({
  name: z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters'),
  role: z.enum(['agent', 'admin'], { message: 'must be agent or admin' }),
});

/** Last use is written at most this often per key and node: a key may serve many requests a second. */
const lastUseWriteMs = 60_000;

const digest = (key: string) => createHash('sha256').update(key).digest();

export type ApiKeyRecord = ApiKey & { key?: string };

export class ApiKeyService implements ApiKeyAuthenticator {
  /** Verified keys by digest; bounded, short-lived, and emptied of a key on its revocation. */
  private verified: TtlCache<string, Principal>;
  private lastUseWritten = new Map<string, number>();
  private throttle: CredentialThrottle;

  constructor(
    private db: Db,
    private events: EventLog,
    config: Config,
    limiters: Limiters,
  ) {
    this.verified = new TtlCache(config.authCacheMs, 10_000);
    this.throttle = new CredentialThrottle(limiters, config.signinThrottle);
    events.bus.subscribe(apiKeyRevokedChannel, () => this.verified.clear());
  }

  isKey(credential: string) {
    return credential.startsWith(keyPrefix);
  }

  /** Creates a key (admins; not a key itself, so a leaked key cannot mint others). Answers it with `key`, the only time it is shown. */
  async create(projectId: string, principal: Principal, input: unknown): Promise<ApiKeyRecord> {
    if (principal.apiKey) throw forbidden('an API key cannot manage API keys');
    const data = parseInput(createInput, input);
    const id = `k${randomBytes(15).toString('hex')}`;
    const key = `${keyPrefix}${id}_${randomBytes(32).toString('base64url')}`;
    const saved = await this.events.transaction(async (tx, emit) => {
      const row = await tx.apiKey.create({
        data: { id, id_project: projectId, name: data.name, role: data.role, keyHash: digest(key).toString('hex'), createdBy: principal.userId },
      });
      await emit({ projectId, name: 'api_key.create', subject: row.id, payload: { role: row.role } });
      return row;
    });
    return { ...saved, key };
  }

  /** The project's keys in use, newest first: name, role, creation and last use, never the key. */
  list(projectId: string) {
    return this.db.apiKey.findMany({ where: { id_project: projectId, revokedAt: null }, orderBy: { createdAt: 'desc' } });
  }

  /** Revokes a key: it answers 401 at once here and, through the bus, on every node. */
  async revoke(projectId: string, principal: Principal, id: string) {
    if (principal.apiKey) throw forbidden('an API key cannot manage API keys');
    const key = await this.db.apiKey.findFirst({ where: { id, id_project: projectId, revokedAt: null } });
    if (!key) throw notFound('API key');
    const revoked = await this.events.transaction(async (tx, emit) => {
      const row = await tx.apiKey.update({ where: { id }, data: { revokedAt: new Date() } });
      await emit({ projectId, name: 'api_key.revoke', subject: row.id });
      return row;
    });
    this.verified.clear();
    await this.events.bus.publish(apiKeyRevokedChannel, { id });
    return revoked;
  }

  /** The principal of a key; 401 for a malformed, unknown or revoked one (failures count in the credential throttle). */
  async authenticate(credential: string, clientIp: string): Promise<Principal> {
    const hash = digest(credential);
    const cacheKey = hash.toString('hex');
    const cached = this.verified.get(cacheKey);
    if (cached) {
      this.noteUse(cached.apiKey!.id);
      return cached;
    }
    const match = keyPattern.exec(credential);
    if (!match) throw unauthenticated('invalid API key');
    const id = match[1];
    const principal = await this.throttle.check(
      { account: `apikey:${id}`, source: clientIp },
      async () => {
        const key = await this.db.apiKey.findUnique({ where: { id } });
        const stored = Buffer.from(key?.keyHash ?? '', 'hex');
        if (!key || key.revokedAt || stored.length !== hash.length || !timingSafeEqual(stored, hash)) {
          throw new CredentialRejected('invalid or revoked API key');
        }
        return keyPrincipal(key);
      },
      'verify-first',
    );
    this.verified.set(cacheKey, principal);
    this.noteUse(id);
    return principal;
  }

  private noteUse(id: string) {
    const now = Date.now();
    if ((this.lastUseWritten.get(id) ?? 0) > now - lastUseWriteMs) return;
    if (this.lastUseWritten.size > 10_000) this.lastUseWritten.clear();
    this.lastUseWritten.set(id, now);
    void this.db.apiKey.update({ where: { id }, data: { lastUsedAt: new Date(now) } }).catch(() => {});
  }
}

/** How a key appears to the rest of the platform: an account-shaped view and a membership of its role in its project. */
function keyPrincipal(key: ApiKey): Principal {
  const author = apiKeyAuthor(key.id);
  const user = actorAccount({ id: author, name: key.name, createdAt: key.createdAt, updatedAt: key.updatedAt, v: key.v });
  const teammate: TeammateRecord = {
    id: author,
    id_project: key.id_project,
    id_user: author,
    role: key.role,
    // An integration takes no conversations: never available for routing.
    user_available: false,
    max_served_chat: null,
    number_assigned_requests: 0,
    last_request_id: null,
    status: 'active',
    isBusy: false,
    attributes: { api_key: true },
    tags: [],
    settings: {},
    presence: { status: 'offline' },
    isAuthenticated: true,
    trashed: false,
    createdBy: key.createdBy,
    createdAt: key.createdAt,
    updatedAt: key.updatedAt,
    v: key.v,
    user,
  };
  return { userId: author, user, anonymous: false, apiKey: { id: key.id, projectId: key.id_project, role: key.role, teammate } };
}
