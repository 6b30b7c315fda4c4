import { createRequire } from 'node:module';

// The official JavaScript SDK (@tiledesk/tiledesk-client) as a legacy integration uses it: a client
// per project and token, callbacks turned into promises. It treats any status but 200 as an error.

type Callback<T> = (err: unknown, result?: T) => void;

// The SDK is CommonJS without type declarations: the methods the tests call.
export interface SdkClient {
  getProjectUser(userId: string, callback: Callback<unknown>): void;
  getIntents(botId: string, name: string | null, page: number | null, limit: number | null, text: string | null, callback: Callback<unknown>): Promise<unknown>;
  createDepartment(name: string, routing: string | null | undefined, groupId: string | undefined, botId: string | undefined, callback: Callback<unknown>): void;
  fireEvent(event: { name: string; attributes?: Record<string, unknown> }, callback: Callback<unknown>): void;
  [method: string]: unknown;
}

interface SdkModule {
  TiledeskClient: {
    new (options: { APIKEY: string; projectId: string; token: string; APIURL: string }): SdkClient;
    customAuthentication(token: string, apikey: string, options: { APIURL: string }, callback: Callback<unknown>): void;
  };
}

export const { TiledeskClient } = createRequire(import.meta.url)('@tiledesk/tiledesk-client') as SdkModule;

/** A client of the SDK against a test server. */
export function sdkClient(baseUrl: string, projectId: string, token: string) {
  return new TiledeskClient({ APIKEY: 'any-api-key', projectId, token, APIURL: `${baseUrl}/v3` });
}

/** Calls an SDK method whose last argument is a Node-style callback. */
export function sdkCall<T = any>(client: SdkClient, method: string, ...args: unknown[]): Promise<T> {
  return new Promise((resolve, reject) => {
    (client[method] as (...a: unknown[]) => unknown)(...args, (err: unknown, result?: T) => (err ? reject(err) : resolve(result as T)));
  });
}

/** The HTTP status of an SDK failure (axios error, or the SDK's own `http_response`). */
export function sdkStatus(error: unknown): number | undefined {
  const e = error as { response?: { status?: number }; http_response?: { status?: number } };
  return e.response?.status ?? e.http_response?.status;
}
