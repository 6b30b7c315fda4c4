import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { openRequest, send } from './helpers/conversations.js';

// `attributes.updateUserEmail` / `updateUserFullname` send the visitor's details back to the
// widget; the conversation's lead takes them too.

let t: TestApp;
let p: SeededProject;
beforeAll(async () => {
  t = await sharedTestApp();
  p = await t.seedProject('Details');
});
afterAll(() => t.close());

const leadOf = async (requestId: string) => (await t.get(`/v3/${p.projectId}/requests/${requestId}`, { token: p.owner.token })).body.lead;

describe('user details sent back in a message', () => {
  it("updates the request's lead e-mail and full name", async () => {
    const requestId = await openRequest(t, p);
    const res = await send(t, p.projectId, p.admin.token, requestId, {
      text: 'Thanks, noted.',
      attributes: { updateUserEmail: 'ann@example.test', updateUserFullname: 'Ann Smith' },
    });
    expect(res.status).toBe(200);
    expect(res.body.attributes).toMatchObject({ updateUserEmail: 'ann@example.test', updateUserFullname: 'Ann Smith' });
    expect(await leadOf(requestId)).toMatchObject({ email: 'ann@example.test', fullname: 'Ann Smith' });
  });

  it('answers 400 naming attributes.updateUserEmail for a value that is not an e-mail, and changes nothing', async () => {
    const requestId = await openRequest(t, p);
    const before = await leadOf(requestId);
    const res = await send(t, p.projectId, p.admin.token, requestId, { attributes: { updateUserEmail: 'not-an-email' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_USER_INPUT', field: 'attributes.updateUserEmail' });
    expect((await leadOf(requestId)).email).toBe(before.email);
  });
});
