import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { openRequest } from './helpers/conversations.js';

// Numbers past what a column or a GraphQL Int holds are bad input (400 naming the field), never a 500.

let t: TestApp;
let p: SeededProject;
let requestId: string;
beforeAll(async () => {
  t = await sharedTestApp();
  p = await t.seedProject();
  requestId = await openRequest(t, p);
});
afterAll(() => t.close());

const huge = '2147483648';
const vast = '99999999999999999999';

describe('integer input out of range', () => {
  const cases: Array<[string, string, () => string, () => unknown]> = [
    ['GET', 'page', () => `/v3/${p.projectId}/requests?page=${huge}`, () => undefined],
    ['GET', 'limit', () => `/v3/${p.projectId}/requests?limit=${vast}`, () => undefined],
    ['GET', 'page', () => `/v3/${p.projectId}/leads?page=${huge}`, () => undefined],
    ['GET', 'page', () => `/v3/${p.projectId}/canned?page=${huge}`, () => undefined],
    ['GET', 'page', () => `/v3/${p.projectId}/tags?page=${huge}`, () => undefined],
    ['GET', 'page', () => `/v3/${p.projectId}/events?page=${huge}`, () => undefined],
    ['GET', 'status', () => `/v3/${p.projectId}/kb?status=${huge}`, () => undefined],
    ['GET', 'limit', () => `/v3/${p.projectId}/kb?limit=${vast}`, () => undefined],
    ['GET', 'page', () => `/v3/${p.projectId}/requests/${requestId}/messages?page=${huge}`, () => undefined],
    ['GET', 'limit', () => `/v3/${p.projectId}/faq?limit=${huge}`, () => undefined],
    ['PUT', 'max_served_chat', () => `/v3/${p.projectId}/project_users`, () => ({ max_served_chat: Number(huge) })],
    ['PATCH', 'status', () => `/v3/${p.projectId}/requests/${requestId}`, () => ({ status: Number(vast) })],
    ['PATCH', 'rating', () => `/v3/${p.projectId}/requests/${requestId}/rating`, () => ({ rating: Number(vast) })],
  ];
  for (const [method, field, url, body] of cases) {
    const resource = url.toString().match(/\/([a-z_]+)(?:\?|\/?`)/)?.[1] ?? 'request';
    it(`${method} ${resource} with ${field} past 2^31 answers 400 naming ${field}`, async () => {
      const res = await t.request(method, url(), { token: p.owner.token, body: body() });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(JSON.stringify(res.body)).toContain(field);
    });
  }
});
