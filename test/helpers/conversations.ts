import { randomUUID } from 'node:crypto';
import type { Reply, SeededProject, TestApp } from './app.js';

// Shared by the request, message, routing and realtime tests.

export const newRequestId = () => `support-group-${randomUUID()}`;

/** POST a message as `token`; creates the request on first use. */
export function send(t: TestApp, projectId: string, token: string, requestId: string, body: Record<string, unknown> = {}): Promise<Reply> {
  return t.post(`/v3/${projectId}/requests/${requestId}/messages`, { token, body: { text: 'hello', ...body } });
}

/** A request opened by the project's guest with one message; returns its request_id. */
export async function openRequest(t: TestApp, p: SeededProject, body: Record<string, unknown> = {}) {
  const requestId = newRequestId();
  const res = await send(t, p.projectId, p.guest.token, requestId, body);
  if (res.status !== 200) throw new Error(`opening a request failed: ${JSON.stringify(res.body)}`);
  return requestId;
}

/** Polls `probe` until it returns a truthy value, for at most `timeoutMs`. */
export async function eventually<T>(probe: () => T | undefined | null | false | Promise<T | undefined | null | false>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Makes every teammate but `keep` unavailable, so routing has one candidate. */
export async function onlyAvailable(t: TestApp, p: SeededProject, keep: Array<{ teammateId: string }>) {
  const ids = new Set(keep.map((k) => k.teammateId));
  for (const member of [p.owner, p.admin, p.agent]) {
    await t.put(`/v3/${p.projectId}/project_users/${member.teammateId}`, {
      token: p.owner.token,
      body: { user_available: ids.has(member.teammateId) },
    });
  }
}
