import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { eventually, openRequest } from './helpers/conversations.js';
import { startSmtpSink, type SmtpSink } from './helpers/smtp.js';

// E-mail through a real SMTP server on 127.0.0.1: the internal send route, its recipients, its
// limits, and what the queue does with temporary and permanent SMTP failures.

let smtp: SmtpSink;
let t: TestApp;
let p: SeededProject;
const sendLimit = 8;

beforeAll(async () => {
  smtp = await startSmtpSink();
  t = await createTestApp({ SMTP_URL: smtp.url, MAIL_FROM: 'Acme support <support@acme.test>', EMAIL_INTERNAL_SEND_LIMIT: String(sendLimit), EMAIL_ATTEMPTS: '3' });
  p = await t.seedProject('Acme');
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const sendPath = (projectId = p.projectId) => `/v3/${projectId}/emails/internal/send`;
const unique = (name: string) => `${name}.${Math.random().toString(36).slice(2, 8)}@example.test`;

describe('POST /:project_id/emails/internal/send', () => {
  it('queues a message that reaches the address with the subject, the text and the project name, as text and HTML', async () => {
    const to = unique('customer');
    const res = await t.post(sendPath(), { token: p.agent.token, body: { to, subject: 'Your order', text: 'It <ships> today.' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ queued: true });
    const mail = await smtp.mailTo(to);
    expect(mail.subject).toBe('[Acme] Your order');
    expect(mail.text).toContain('It <ships> today.');
    expect(mail.text).toContain('Acme');
    expect(mail.html).toContain('It &lt;ships&gt; today.');
    expect(mail.from).toContain('support@acme.test');
    // Replies go to the agent who wrote, unless `replyto` says otherwise.
    expect(mail.replyTo).toContain(p.agent.email);
  });

  it('sends `@admins` to the project\'s owner and admins only', async () => {
    const subject = `admins ${Math.random()}`;
    expect((await t.post(sendPath(), { token: p.agent.token, body: { to: '@admins', subject, text: 'hi' } })).status).toBe(200);
    const mail = await smtp.mailTo(p.owner.email, (m) => m.subject.endsWith(subject));
    expect(mail.to.sort()).toEqual([p.owner.email, p.admin.email].map((e) => e.toLowerCase()).sort());
  });

  it('sends a group name to the group\'s members', async () => {
    const group = await t.post(`/v3/${p.projectId}/groups`, { token: p.admin.token, body: { name: 'Billing', members: [p.agent.userId] } });
    expect(group.status).toBe(200);
    const subject = `group ${Math.random()}`;
    expect((await t.post(sendPath(), { token: p.admin.token, body: { to: 'Billing', subject, text: 'hi', replyto: 'billing@acme.test' } })).status).toBe(200);
    const mail = await smtp.mailTo(p.agent.email, (m) => m.subject.endsWith(subject));
    expect(mail.to).toEqual([p.agent.email.toLowerCase()]);
    expect(mail.replyTo).toContain('billing@acme.test');
  });

  it('names the conversation the message is about', async () => {
    const requestId = await openRequest(t, p);
    const to = unique('about');
    expect((await t.post(sendPath(), { token: p.agent.token, body: { to, subject: 'About it', text: 'hi', request_id: requestId } })).status).toBe(200);
    expect((await smtp.mailTo(to)).text).toMatch(/about conversation #\d+/);
  });

  it('answers 400 naming `to` for something that is no address, role or group', async () => {
    const res = await t.post(sendPath(), { token: p.agent.token, body: { to: 'Nobody here', subject: 's', text: 't' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_USER_INPUT', field: 'to' });
    const role = await t.post(sendPath(), { token: p.agent.token, body: { to: '@visitors', subject: 's', text: 't' } });
    expect(role.status).toBe(400);
    expect(role.body.field).toBe('to');
  });

  it('answers 400 naming `subject` when it is missing', async () => {
    const res = await t.post(sendPath(), { token: p.agent.token, body: { to: unique('x'), text: 't' } });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('subject');
  });

  it('refuses a teammate below agent (403) and a caller without credentials (401)', async () => {
    const body = { to: unique('x'), subject: 's', text: 't' };
    expect((await t.post(sendPath(), { token: p.user.token, body })).status).toBe(403);
    expect((await t.post(sendPath(), { body })).status).toBe(401);
  });

  it('answers 404 for a request of another project', async () => {
    const other = await t.seedProject('Other');
    const foreign = await openRequest(t, other);
    const res = await t.post(sendPath(), { token: p.agent.token, body: { to: unique('x'), subject: 's', text: 't', request_id: foreign } });
    expect(res.status).toBe(404);
  });

  it('limits the messages of one project per window (429), not those of another project', async () => {
    const limited = await t.seedProject('Chatty');
    const body = () => ({ to: unique('limit'), subject: 's', text: 't' });
    for (let i = 0; i < sendLimit; i++) expect((await t.post(sendPath(limited.projectId), { token: limited.agent.token, body: body() })).status).toBe(200);
    const refused = await t.post(sendPath(limited.projectId), { token: limited.agent.token, body: body() });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await t.post(sendPath(), { token: p.agent.token, body: body() })).status).toBe(200);
  });
});

describe('delivery through the job queue', () => {
  it('retries a message the SMTP server refuses for now (451) until it is accepted', async () => {
    const to = unique('busy');
    smtp.refuse = (address, attempt) => (address === to && attempt === 1 ? 451 : null);
    expect((await t.post(sendPath(), { token: p.agent.token, body: { to, subject: 'retry', text: 't' } })).status).toBe(200);
    await smtp.mailTo(to);
    expect(smtp.attempts.get(to)).toBe(2);
  });

  it('does not retry a message refused for good (550), and counts it as a permanent failure', async () => {
    const to = unique('gone');
    const before = t.services.email.mailer.permanentFailures;
    smtp.refuse = (address) => (address === to ? 550 : null);
    expect((await t.post(sendPath(), { token: p.agent.token, body: { to, subject: 'never', text: 't' } })).status).toBe(200);
    await eventually(async () => t.services.email.mailer.permanentFailures === before + 1);
    // A temporary failure is retried after 1 s: a later message delivered after that shows none was.
    const later = unique('later');
    smtp.refuse = (address, attempt) => (address === later && attempt === 1 ? 451 : address === to ? 550 : null);
    await t.post(sendPath(), { token: p.agent.token, body: { to: later, subject: 'later', text: 't' } });
    await smtp.mailTo(later);
    expect(smtp.attempts.get(to)).toBe(1);
  });
});

describe('without SMTP_URL', () => {
  it('writes each message as an .eml file under DATA_DIR/outbox', async () => {
    const embedded = await createTestApp();
    try {
      const q = await embedded.seedProject('Outboxed');
      const to = unique('outbox');
      const res = await embedded.post(`/v3/${q.projectId}/emails/internal/send`, { token: q.agent.token, body: { to, subject: 'Kept', text: 'Read me' } });
      expect(res.status).toBe(200);
      const dir = path.join(embedded.infra.config.dataDir, 'outbox');
      const file = await eventually(async () => {
        const files = (() => { try { return readdirSync(dir); } catch { return []; } })();
        return files.map((f) => readFileSync(path.join(dir, f), 'utf8')).find((eml) => eml.includes(to));
      });
      expect(file).toContain('Subject: [Outboxed] Kept');
      expect(file).toContain('Read me');
    } finally {
      await embedded.close();
    }
  });
});
