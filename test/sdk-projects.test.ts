import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from './helpers/app.js';
import { sdkCall, sdkClient } from './helpers/sdk.js';

// The official SDK's openNow: the widget asks whether a project is open before anyone signs in,
// so the SDK sends no Authorization header (its constructor still wants a token string).

let t: TestApp;
let owner: { token: string };
beforeAll(async () => {
  t = await sharedTestApp();
  owner = await t.newUser('owner');
});
afterAll(() => t.close());

/** The SDK's openNow, from a client built with a made-up token: it sends no Authorization header. */
const openNow = (projectId: string) => sdkCall<{ isopen: boolean }>(sdkClient(t.baseUrl, projectId, 'not-a-real-token'), 'openNow');

async function project(name: string) {
  return (await t.post('/v3/projects', { token: owner.token, body: { name } })).body._id as string;
}

describe('TiledeskClient.openNow', () => {
  it('says a project without active operating hours is open', async () => {
    expect(await openNow(await project('Always open'))).toEqual({ isopen: true });
  });

  it('says a project whose operating hours have no slot today is closed', async () => {
    const projectId = await project('Closed');
    await t.put(`/v3/projects/${projectId}`, {
      token: owner.token,
      body: { activeOperatingHours: true, operatingHours: { tzname: 'UTC' } },
    });
    expect(await openNow(projectId)).toEqual({ isopen: false });
  });

  it('fails with 404 for an unknown project', async () => {
    await expect(openNow('no-such-project')).rejects.toMatchObject({ response: { status: 404 } });
  });
});
