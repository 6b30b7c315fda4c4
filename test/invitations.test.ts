import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { fastestTimeRatio, similar } from './helpers/timing.js';
import { withoutRequestId } from './helpers/errors.js';

// Invitations need the invitee's consent, and inviting never tells whether an e-mail has an account.

let t: TestApp;
let p: SeededProject;
beforeAll(async () => {
  t = await sharedTestApp();
  p = await t.seedProject('Inviting');
});
afterAll(() => t.close());

const invite = (email: string, body: Record<string, unknown> = {}, token = p.admin.token, projectId = p.projectId) =>
  t.post(`/v3/${projectId}/project_users/invite`, { token, body: { email, role: 'agent', ...body } });
const unknownEmail = () => `nobody.${Math.random().toString(36).slice(2)}@example.test`;
const accept = (id: string, token: string) => t.post(`/v3/invitations/${id}/accept`, { token });
const projectsOf = async (token: string) => (await t.get('/v3/projects', { token })).body.map((m: any) => m.id_project._id);

/** The answer with what differs between any two invitations (ids, e-mail, times) blanked. */
const shapeOf = (body: any) => ({
  ...body,
  invitation: { ...body.invitation, _id: 'id', id: 'id', email: 'email', createdAt: 'time', updatedAt: 'time' },
});

describe('inviting an e-mail', () => {
  it('answers an e-mail with an account exactly as one without: pending, no teammate, nothing of the account', async () => {
    const account = await t.newUser('Zelda');
    const known = await invite(account.email);
    const unknown = await invite(unknownEmail());
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.body).toMatchObject({ success: true, pending: true, project_user: null });
    expect(shapeOf(known.body)).toEqual(shapeOf(unknown.body));
    expect(JSON.stringify(known.body)).not.toContain('Zelda');
  });

  it('does not make an existing account a teammate before it accepts', async () => {
    const account = await t.newUser('notyet');
    await invite(account.email);
    expect((await t.get(`/v3/projects/${p.projectId}`, { token: account.token })).status).toBe(403);
    expect(await projectsOf(account.token)).toEqual([]);
    const teammates = await t.get(`/v3/${p.projectId}/project_users`, { token: p.admin.token });
    expect(teammates.body.map((m: any) => m.id_user._id)).not.toContain(account.user._id);
  });

  it('answers in about the same time whether or not the e-mail has an account (within 30%)', async () => {
    const accounts = await Promise.all(Array.from({ length: 15 }, (_, i) => t.newUser(`timed${i}`)));
    const ratio = await fastestTimeRatio(
      async (i) => expect((await invite(accounts[i].email)).status).toBe(200),
      async () => expect((await invite(unknownEmail())).status).toBe(200),
      15,
    );
    expect(similar(ratio), `with an account / without: ${ratio.toFixed(2)}`).toBe(true);
  });

  it('logs project_user.invite naming the invitation, whether or not the e-mail has an account', async () => {
    const account = await t.newUser('logged');
    const [before] = (await t.infra.eventLog.readAfter(p.projectId, 0, 100_000)).slice(-1);
    const known = await invite(account.email);
    const unknown = await invite(unknownEmail());
    const events = await t.infra.eventLog.readAfter(p.projectId, before.seq);
    expect(events.map((e) => [e.name, e.subject, e.payload])).toEqual([
      ['project_user.invite', known.body.invitation._id, { pending: true }],
      ['project_user.invite', unknown.body.invitation._id, { pending: true }],
    ]);
  });
});

describe('the invitee', () => {
  it('lists the invitations addressed to their e-mail, with the project\'s name and the role offered', async () => {
    const account = await t.newUser('lister');
    const sent = await invite(account.email, { role: 'admin' });
    const res = await t.get('/v3/invitations', { token: account.token });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
    expect(res.body[0]).toMatchObject({ _id: sent.body.invitation._id, id_project: p.projectId, project_name: 'Inviting', role: 'admin' });
  });

  it('joins with the invited role and availability on accepting', async () => {
    const account = await t.newUser('joiner');
    const sent = await invite(account.email, { role: 'admin', user_available: false });
    const res = await accept(sent.body.invitation._id, account.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id_project: p.projectId, role: 'admin', user_available: false, trashed: false });
    expect(res.body.id_user._id).toBe(account.user._id);
    expect((await t.get(`/v3/projects/${p.projectId}`, { token: account.token })).status).toBe(200);
    expect((await t.get('/v3/invitations', { token: account.token })).body).toEqual([]);
  });

  it('logs project_user.invite naming the new teammate on accepting', async () => {
    const account = await t.newUser('eventful');
    const sent = await invite(account.email);
    const [before] = (await t.infra.eventLog.readAfter(p.projectId, 0, 100_000)).slice(-1);
    const teammate = (await accept(sent.body.invitation._id, account.token)).body;
    const events = await t.infra.eventLog.readAfter(p.projectId, before.seq);
    expect(events.map((e) => [e.name, e.subject])).toEqual([['project_user.invite', teammate._id]]);
  });

  it('can accept an invitation only once', async () => {
    const account = await t.newUser('twice');
    const sent = await invite(account.email);
    const [first, second] = await Promise.all([accept(sent.body.invitation._id, account.token), accept(sent.body.invitation._id, account.token)]);
    expect([first.status, second.status].sort()).toEqual([200, 404]);
  });

  it('declining deletes the invitation and adds nobody', async () => {
    const account = await t.newUser('decliner');
    const sent = await invite(account.email);
    const res = await t.post(`/v3/invitations/${sent.body.invitation._id}/decline`, { token: account.token });
    expect(res.status).toBe(200);
    expect(res.body._id).toBe(sent.body.invitation._id);
    expect((await t.get('/v3/invitations', { token: account.token })).body).toEqual([]);
    expect((await accept(sent.body.invitation._id, account.token)).status).toBe(404);
    expect(await projectsOf(account.token)).toEqual([]);
  });

  it('a new account signing up with an invited e-mail joins only by accepting', async () => {
    const email = unknownEmail();
    const sent = await invite(email, { role: 'admin' });
    await t.post('/v3/auth/signup', { body: { email, password: 'long enough pw' } });
    const { token } = (await t.post('/v3/auth/signin', { body: { email, password: 'long enough pw' } })).body;
    expect(await projectsOf(token)).toEqual([]);
    expect((await accept(sent.body.invitation._id, token)).body).toMatchObject({ role: 'admin' });
    expect(await projectsOf(token)).toEqual([p.projectId]);
  });
});

describe('someone else', () => {
  it('cannot see, accept or decline an invitation addressed to another e-mail: 404, as for an unknown id', async () => {
    const invitee = await t.newUser('invitee');
    const intruder = await t.newUser('intruder');
    const sent = await invite(invitee.email, { role: 'admin' });
    const id = sent.body.invitation._id;
    expect((await t.get('/v3/invitations', { token: intruder.token })).body).toEqual([]);
    const foreign = await accept(id, intruder.token);
    const unknown = await accept('no-such-invitation', intruder.token);
    expect(foreign.status).toBe(404);
    expect(withoutRequestId(foreign.body)).toEqual(withoutRequestId(unknown.body));
    expect((await t.post(`/v3/invitations/${id}/decline`, { token: intruder.token })).status).toBe(404);
    expect(await projectsOf(intruder.token)).toEqual([]);
    expect((await accept(id, invitee.token)).status).toBe(200);
  });

  it('cannot accept as an anonymous visitor', async () => {
    const sent = await invite(unknownEmail());
    expect((await t.get('/v3/invitations', { token: p.guest.token })).body).toEqual([]);
    expect((await accept(sent.body.invitation._id, p.guest.token)).status).toBe(404);
  });

  it('needs to be signed in: 401', async () => {
    expect((await t.get('/v3/invitations')).status).toBe(401);
    expect((await t.post('/v3/invitations/x/accept')).status).toBe(401);
  });
});

describe('the project\'s admins', () => {
  it('list the pending invitations of the project (agents: 403)', async () => {
    const email = unknownEmail();
    await invite(email, { role: 'admin', user_available: false });
    const res = await t.get(`/v3/${p.projectId}/invitations?limit=100`, { token: p.admin.token });
    expect(res.status).toBe(200);
    expect(res.body.find((i: any) => i.email === email)).toMatchObject({ role: 'admin', user_available: false, id_project: p.projectId });
    expect((await t.get(`/v3/${p.projectId}/invitations`, { token: p.agent.token })).status).toBe(403);
  });

  it('revoke an invitation, which the invitee can then no longer accept', async () => {
    const account = await t.newUser('revoked');
    const sent = await invite(account.email);
    const res = await t.delete(`/v3/${p.projectId}/invitations/${sent.body.invitation._id}`, { token: p.admin.token });
    expect(res.status).toBe(200);
    expect(res.body._id).toBe(sent.body.invitation._id);
    expect((await t.get('/v3/invitations', { token: account.token })).body).toEqual([]);
    expect((await accept(sent.body.invitation._id, account.token)).status).toBe(404);
  });

  it('cannot revoke another project\'s invitation through their own project: 404', async () => {
    const other = await t.seedProject('Other');
    const sent = await invite(unknownEmail(), {}, other.admin.token, other.projectId);
    const res = await t.delete(`/v3/${p.projectId}/invitations/${sent.body.invitation._id}`, { token: p.admin.token });
    expect(res.status).toBe(404);
    const left = await t.get(`/v3/${other.projectId}/invitations`, { token: other.admin.token });
    expect(left.body.map((i: any) => i._id)).toContain(sent.body.invitation._id);
  });
});

describe('GraphQL', () => {
  it('invites, lists and accepts', async () => {
    const account = await t.newUser('graphql');
    const sent = await t.gql(
      'mutation($p: String!, $e: String) { inviteTeammate(project_id: $p, email: $e, role: "agent") { pending project_user { _id } invitation { _id } } }',
      { p: p.projectId, e: account.email },
      p.owner.token,
    );
    expect(sent.body.data.inviteTeammate).toMatchObject({ pending: true, project_user: null });
    const mine = await t.gql('{ myInvitations { _id project_name } }', {}, account.token);
    expect(mine.body.data.myInvitations).toEqual([{ _id: sent.body.data.inviteTeammate.invitation._id, project_name: 'Inviting' }]);
    const accepted = await t.gql(
      'mutation($i: String!) { acceptInvitation(invitation_id: $i) { role id_project } }',
      { i: sent.body.data.inviteTeammate.invitation._id },
      account.token,
    );
    expect(accepted.body.data.acceptInvitation).toEqual({ role: 'agent', id_project: p.projectId });
  });
});
