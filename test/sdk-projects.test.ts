import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app.js';

// The official SDK's openNow: the widget asks whether a project is open before anyone signs in,
// so the SDK sends no Authorization header (its constructor still wants a token string).

interface OpenNowClient {
  openNow(callback: (err: { response?: { status: number } } | null, result?: { isopen: boolean }) => void): void;
}
interface Sdk {
  new (options: { APIKEY: string; projectId: string; token: string; APIURL: string }): OpenNowClient;
}
// The SDK is CommonJS without type declarations.
const { TiledeskClient } = createRequire(import.meta.url)('@tiledesk/tiledesk-client') as { TiledeskClient: Sdk };

let t: TestApp;
let owner: { token: string };
beforeAll(async () => {
  t = await createTestApp();
  owner = await t.newUser('owner');
});
afterAll(() => t.close());

function openNow(projectId: string) {
  const client = new TiledeskClient({ APIKEY: 'any-api-key', projectId, token: 'not-a-real-token', APIURL: `${t.baseUrl}/v3` });
  return new Promise<{ isopen: boolean }>((resolve, reject) =>
    client.openNow((err, result) => (err ? reject(err) : resolve(result!))),
  );
}

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
