import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { onlyAvailable, openRequest } from './helpers/conversations.js';
import { consumerCaughtUp } from './helpers/event-consumers.js';
import { startSmtpSink, tokenOf, type SmtpSink } from './helpers/smtp.js';

// Account flows that go through e-mail, each followed through a real SMTP server: verification,
// password change and reset, invitations with their link, and notifications.

let smtp: SmtpSink;
let t: TestApp;
let p: SeededProject;

beforeAll(async () => {
  smtp = await startSmtpSink();
  t = await createTestApp({ SMTP_URL: smtp.url, PUBLIC_URL: 'https://support.acme.test', EVENT_SWEEP_INTERVAL: '200ms' });
  p = await t.seedProject('Acme');
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const unique = (name: string) => `${name}.${Math.random().toString(36).slice(2, 8)}@example.test`;
const password = 'correct horse battery';
const signup = async (email = unique('new')) => {
  expect((await t.post('/v3/auth/signup', { body: { email, password, firstname: 'New' } })).status).toBe(200);
  const signin = await t.post('/v3/auth/signin', { body: { email, password } });
  return { email, token: signin.body.token as string };
};
const me = (token: string) => t.get('/v3/auth/me', { token });

describe('e-mail verification', () => {
  it('e-mails a link after sign-up whose token makes `emailverified` true', async () => {
    const account = await signup();
    expect((await me(account.token)).body.emailverified).toBe(false);
    const mail = await smtp.mailTo(account.email, (m) => m.subject === 'Confirm your e-mail address');
    const link = mail.links.find((l) => l.startsWith('https://support.acme.test/console/verify-email?token='))!;
    const verified = await t.post('/v3/auth/verifyEmail', { body: { token: tokenOf(link) } });
    expect(verified.status).toBe(200);
    expect(verified.body.user.emailverified).toBe(true);
    expect((await me(account.token)).body.emailverified).toBe(true);
  });

  it('answers 400 naming `token` for a token that is not a verification token', async () => {
    const account = await signup();
    const res = await t.post('/v3/auth/verifyEmail', { body: { token: account.token.slice(4) } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_USER_INPUT', field: 'token' });
  });

  it('tells the holder of an e-mail someone signed up with it again, and creates nothing', async () => {
    const account = await signup();
    expect((await t.post('/v3/auth/signup', { body: { email: account.email, password: 'another password' } })).status).toBe(409);
    await smtp.mailTo(account.email, (m) => m.subject === 'You already have an account');
  });
});

describe('password change', () => {
  it('needs the current password (400 naming `oldpassword`)', async () => {
    const account = await signup();
    const res = await t.post('/v3/auth/changePassword', { token: account.token, body: { oldpassword: 'wrong password', newpassword: 'a new password' } });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('oldpassword');
  });

  it('revokes the tokens issued before, answers a new one, and the new password signs in', async () => {
    const account = await signup();
    const other = (await t.post('/v3/auth/signin', { body: { email: account.email, password } })).body.token as string;
    const res = await t.post('/v3/auth/changePassword', { token: account.token, body: { oldpassword: password, newpassword: 'a new password' } });
    expect(res.status).toBe(200);
    expect((await me(account.token)).status).toBe(401);
    expect((await me(other)).status).toBe(401);
    expect((await me(res.body.token)).status).toBe(200);
    expect((await t.post('/v3/auth/signin', { body: { email: account.email, password: 'a new password' } })).status).toBe(200);
  });
});

describe('password reset by e-mail', () => {
  const requestReset = async (email: string) => {
    const res = await t.post('/v3/auth/requestPasswordReset', { body: { email } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    const mail = await smtp.mailTo(email, (m) => m.subject === 'Reset your password' && !used.has(m));
    used.add(mail);
    return tokenOf(mail.links.find((l) => l.startsWith('https://support.acme.test/console/reset-password?token='))!);
  };
  const used = new Set<unknown>();

  it('answers an unknown e-mail as a known one', async () => {
    const res = await t.post('/v3/auth/requestPasswordReset', { body: { email: unique('nobody') } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
  });

  it('sets a new password with the link, once, and signs out the other sessions', async () => {
    const account = await signup();
    const token = await requestReset(account.email);
    const reset = await t.post('/v3/auth/resetPassword', { body: { token, password: 'reset password 1' } });
    expect(reset.status).toBe(200);
    expect((await me(reset.body.token)).status).toBe(200);
    expect((await me(account.token)).status).toBe(401);
    expect((await t.post('/v3/auth/signin', { body: { email: account.email, password: 'reset password 1' } })).status).toBe(200);
    const again = await t.post('/v3/auth/resetPassword', { body: { token, password: 'reset password 2' } });
    expect(again.status).toBe(400);
    expect(again.body.field).toBe('token');
  });

  it('refuses a link past its lifetime', async () => {
    const account = await signup();
    const token = await requestReset(account.email);
    await t.infra.database.prisma.accountToken.updateMany({ where: { usedAt: null }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const res = await t.post('/v3/auth/resetPassword', { body: { token, password: 'too late password' } });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('token');
  });
});

describe('invitations by e-mail', () => {
  const invite = (email: string) => t.post(`/v3/${p.projectId}/project_users/invite`, { token: p.admin.token, body: { email, role: 'agent' } });
  const linkTo = async (email: string) => {
    const mail = await smtp.mailTo(email, (m) => m.subject === 'You are invited to join Acme');
    return new URL(mail.links.find((l) => l.startsWith('https://support.acme.test/console/invitations/'))!);
  };

  it('lets an invitee without an account sign up through the link and join, with a verified e-mail', async () => {
    const email = unique('invitee');
    expect((await invite(email)).status).toBe(200);
    const link = await linkTo(email);
    const invitationId = link.pathname.split('/').pop()!;
    const res = await t.post(`/v3/invitations/${invitationId}/signup`, { body: { token: link.searchParams.get('token'), password, firstname: 'Ivy' } });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ email, emailverified: true });
    expect((await t.get(`/v3/projects/${p.projectId}`, { token: res.body.token })).status).toBe(200);
  });

  it('refuses a sign-up with a wrong link token (404)', async () => {
    const email = unique('guessed');
    const invited = await invite(email);
    const res = await t.post(`/v3/invitations/${invited.body.invitation._id}/signup`, { body: { token: 'not-the-token', password } });
    expect(res.status).toBe(404);
  });

  it('keeps an invitee with an account pending until they accept it signed in', async () => {
    const account = await signup();
    const invited = await invite(account.email);
    const link = await linkTo(account.email);
    expect(link.pathname).toBe(`/console/invitations/${invited.body.invitation._id}`);
    expect((await t.get(`/v3/projects/${p.projectId}`, { token: account.token })).status).toBe(403);
    expect((await t.post(`/v3/invitations/${invited.body.invitation._id}/accept`, { token: account.token })).status).toBe(200);
    expect((await t.get(`/v3/projects/${p.projectId}`, { token: account.token })).status).toBe(200);
  });
});

describe('notifications', () => {
  /** Waits until the e-mail notifier has read every event of the project so far. */
  const notifierCaughtUp = () => expect.poll(() => consumerCaughtUp(t, 'email-notifications', p.projectId), { timeout: 10_000, interval: 50 }).toBe(true);

  it('e-mails the offline agent a new conversation is assigned to, unless their setting turns it off', async () => {
    await onlyAvailable(t, p, [p.agent]);
    // Invitees of the tests above joined as available agents: routing must have only p.agent.
    const teammates = (await t.get(`/v3/${p.projectId}/project_users`, { token: p.admin.token })).body as Array<{ _id: string; role: string }>;
    for (const other of teammates.filter((m) => m.role === 'agent' && m._id !== p.agent.teammateId)) {
      await t.put(`/v3/${p.projectId}/project_users/${other._id}`, { token: p.owner.token, body: { user_available: false } });
    }
    const requestId = await openRequest(t, p, { text: 'first question' });
    const mail = await smtp.mailTo(p.agent.email, (m) => m.text.includes('first question'));
    expect(mail.subject).toMatch(/^\[Acme\] New conversation #\d+ assigned to you$/);
    // The conversation's page in the console.
    expect(mail.links).toContain(`https://support.acme.test/console/projects/${p.projectId}/conversations/${requestId}`);

    await t.put(`/v3/${p.projectId}/project_users/`, { token: p.agent.token, body: { settings: { email_notifications: false } } });
    await openRequest(t, p, { text: 'muted question' });
    // The setting in force when the notifier reads the event decides: let it read this one first.
    await notifierCaughtUp();
    await t.put(`/v3/${p.projectId}/project_users/`, { token: p.agent.token, body: { settings: { email_notifications: true } } });
    await openRequest(t, p, { text: 'third question' });
    // Events are read in order: once the third's mail is here, the muted one was decided.
    await smtp.mailTo(p.agent.email, (m) => m.text.includes('third question'));
    expect(smtp.received.some((m) => m.text.includes('muted question'))).toBe(false);
  });

  it('e-mails the visitor the transcript on close when the project enables it and the lead has an e-mail', async () => {
    expect((await t.put(`/v3/projects/${p.projectId}`, { token: p.owner.token, body: { settings: { email_transcript: true } } })).status).toBe(200);
    const visitor = unique('visitor');
    // A new visitor: their lead is made with their first request, and keeps its e-mail.
    const guest = await t.post('/v3/auth/signinAnonymously', { body: { id_project: p.projectId, firstname: 'Val' } });
    const requestId = await openRequest(t, { ...p, guest: { ...p.guest, token: guest.body.token } }, { text: 'where is my parcel?', attributes: { userEmail: visitor } });
    expect((await t.put(`/v3/${p.projectId}/requests/${requestId}/close`, { token: p.admin.token })).status).toBe(200);
    const mail = await smtp.mailTo(visitor);
    expect(mail.subject).toMatch(/^\[Acme\] Transcript of your conversation #\d+$/);
    expect(mail.text).toContain('where is my parcel?');
  });
});

