import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { eventually, newRequestId, send } from './helpers/conversations.js';
import { consumerCaughtUp } from './helpers/event-consumers.js';
import { addIndexed, waitForStatus } from './helpers/kb-fixtures.js';

// The knowledge loop: closed conversations the knowledge base could not answer and an agent did
// become proposals; accepting one makes the knowledge base answer the next visitor asking it.

let t: TestApp;
let p: SeededProject;
let other: SeededProject;

const norwayAnswer = 'Yes: we ship to Norway, delivery takes 5 to 7 working days and customs are included.';
const giftCardFaq = 'Can I pay with a gift card?\nGift cards are accepted at checkout, up to two per order.';

/** A conversation as a team has it: the visitor asks, an agent answers, the agent closes it. */
async function resolved(project: SeededProject, question: string, answer: string) {
  const requestId = newRequestId();
  expect((await send(t, project.projectId, project.guest.token, requestId, { text: question })).status).toBe(200);
  expect((await send(t, project.projectId, project.admin.token, requestId, { text: answer })).status).toBe(200);
  expect((await t.put(`/v3/${project.projectId}/requests/${requestId}/close`, { token: project.admin.token })).status).toBe(200);
  return requestId;
}

const caughtUp = (project: SeededProject) => eventually(() => consumerCaughtUp(t, 'assistant-gaps', project.projectId), 20_000);

const proposals = (project: SeededProject, token = project.agent.token, query = '') => t.get(`/v3/${project.projectId}/kb/proposals${query}`, { token });

async function proposalAsking(project: SeededProject, words: RegExp, status = 'open') {
  const res = await proposals(project, project.admin.token, `?status=${status}`);
  expect(res.status).toBe(200);
  return res.body.find((x: { question: string }) => words.test(x.question));
}

beforeAll(async () => {
  t = await sharedTestApp();
  p = await t.seedProject('Knowledge loop');
  other = await t.seedProject('Knowledge loop elsewhere');
  await addIndexed(t, p.projectId, p.admin.token, '', giftCardFaq, 'faq');
  await resolved(p, 'Do you ship to Norway?', norwayAnswer);
  await resolved(p, 'Hello, do you deliver to Norway?', norwayAnswer);
  await resolved(p, 'Can you ship my order to Norway please', 'We do, 5 to 7 days.');
  await resolved(p, 'Can I pay with a gift card?', 'Yes, at checkout.');
  await resolved(p, 'Is there a student discount on the yearly plan?', 'Students get 30% off the yearly plan with a university e-mail.');
  await caughtUp(p);
});
afterAll(() => t.close());

describe('GET /kb/proposals', () => {
  it('groups the closed conversations asking one question the knowledge base could not answer, with the answer agents gave most', async () => {
    const res = await proposals(p);
    expect(res.status).toBe(200);
    const norway = res.body.find((x: { question: string }) => /norway/i.test(x.question));
    expect(norway).toMatchObject({ question: 'Do you ship to Norway?', answer: norwayAnswer, count: 3, status: 'open' });
    expect(norway.examples).toEqual(expect.arrayContaining(['Do you ship to Norway?', 'Hello, do you deliver to Norway?', 'Can you ship my order to Norway please']));
    expect(norway.request_ids).toHaveLength(3);
  });

  it('lists the most asked first', async () => {
    const res = await proposals(p);
    expect(res.body.map((x: { count: number }) => x.count)).toEqual([3, 1]);
    expect(res.body[1].question).toBe('Is there a student discount on the yearly plan?');
  });

  it('proposes nothing for a question the knowledge base answers', async () => {
    const res = await proposals(p);
    expect(res.body.some((x: { question: string }) => /gift card/i.test(x.question))).toBe(false);
  });

  it("never shows another project's gaps", async () => {
    const res = await proposals(other, other.admin.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  it('refuses roles below agent and other projects\' teammates', async () => {
    expect((await proposals(p, p.user.token)).status).toBe(403);
    expect((await proposals(p, p.guest.token)).status).toBe(403);
    expect((await proposals(p, other.admin.token)).status).toBe(403);
    expect((await t.get(`/v3/${p.projectId}/kb/proposals`)).status).toBe(401);
  });

  it('refuses an unknown status, naming the field', async () => {
    const res = await proposals(p, p.agent.token, '?status=maybe');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_USER_INPUT', field: 'status' });
  });

  it('is the same over GraphQL', async () => {
    const res = await t.gql(`query($p: String!) { kbProposals(project_id: $p) { question answer count examples status } }`, { p: p.projectId }, p.agent.token);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.kbProposals[0]).toMatchObject({ question: 'Do you ship to Norway?', count: 3, status: 'open' });
  });
});

describe('deciding a proposal', () => {
  it('accepting it makes the next visitor asking the same answered by the knowledge base', async () => {
    const proposal = await proposalAsking(p, /norway/i);
    const before = await t.post(`/v3/${p.projectId}/kb/qa`, { token: p.admin.token, body: { question: 'Do you ship to Norway?' } });
    expect(before.body.success).toBe(false);

    const accepted = await t.post(`/v3/${p.projectId}/kb/proposals/${proposal._id}/accept`, { token: p.admin.token, body: {} });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ status: 'accepted', content_id: expect.any(String), decidedBy: p.admin.userId });
    const content = await waitForStatus(t, p.projectId, p.admin.token, accepted.body.content_id, 300);
    expect(content).toMatchObject({ type: 'faq', content: `Do you ship to Norway?\n${norwayAnswer}` });

    const after = await t.post(`/v3/${p.projectId}/kb/qa`, { token: p.admin.token, body: { question: 'Do you ship to Norway?' } });
    expect(after.body).toMatchObject({ success: true, id: accepted.body.content_id });
    expect(after.body.answer).toContain('we ship to Norway');
    // The visitor's agent sees it suggested from the knowledge base too.
    const requestId = newRequestId();
    await send(t, p.projectId, p.guest.token, requestId, { text: 'Do you ship to Norway?' });
    const suggested = await t.get(`/v3/${p.projectId}/requests/${requestId}/suggestions`, { token: p.agent.token });
    expect(suggested.body.replies).toContainEqual(expect.objectContaining({ source: 'kb', ref: accepted.body.content_id }));
  });

  it("teaches the cluster's other questions as learned phrasings of the new content", async () => {
    const proposal = await proposalAsking(p, /norway/i, 'accepted');
    const phrasings = await t.get(`/v3/${p.projectId}/kb/${proposal.content_id}/phrasings`, { token: p.agent.token });
    expect(phrasings.status).toBe(200);
    expect(phrasings.body.map((x: { question: string }) => x.question)).toEqual(
      expect.arrayContaining(['Do you ship to Norway?', 'Hello, do you deliver to Norway?', 'Can you ship my order to Norway please']),
    );
  });

  it('accepting twice answers 409', async () => {
    const proposal = await proposalAsking(p, /norway/i, 'accepted');
    const again = await t.post(`/v3/${p.projectId}/kb/proposals/${proposal._id}/accept`, { token: p.admin.token, body: {} });
    expect(again.status).toBe(409);
  });

  it('accepts with an edited question and answer', async () => {
    await resolved(p, 'Do you have a store in Paris?', 'No shop, sorry.');
    await caughtUp(p);
    const proposal = await proposalAsking(p, /paris/i);
    const res = await t.post(`/v3/${p.projectId}/kb/proposals/${proposal._id}/accept`, {
      token: p.admin.token,
      body: { question: 'Is there a shop in Paris?', answer: 'We sell online only; there is no shop in Paris.' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ question: 'Is there a shop in Paris?', answer: 'We sell online only; there is no shop in Paris.', edited: true });
    const content = await t.get(`/v3/${p.projectId}/kb/${res.body.content_id}`, { token: p.admin.token });
    expect(content.body.content).toBe('Is there a shop in Paris?\nWe sell online only; there is no shop in Paris.');
  });

  it('edits an open proposal', async () => {
    const proposal = await proposalAsking(p, /student/i);
    const res = await t.patch(`/v3/${p.projectId}/kb/proposals/${proposal._id}`, { token: p.admin.token, body: { answer: 'Students: 30% off yearly.' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ answer: 'Students: 30% off yearly.', edited: true, status: 'open', question: proposal.question });
  });

  it('refuses an empty or multi-line question with 400 naming it, changing nothing', async () => {
    const proposal = await proposalAsking(p, /student/i);
    for (const question of ['  ', 'two\nlines']) {
      const res = await t.patch(`/v3/${p.projectId}/kb/proposals/${proposal._id}`, { token: p.admin.token, body: { question } });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'BAD_USER_INPUT', field: 'question' });
    }
    expect((await proposalAsking(p, /student/i)).question).toBe(proposal.question);
  });

  it('refuses accepting into a knowledge base of another project with 400, storing no content', async () => {
    const proposal = await proposalAsking(p, /student/i);
    const foreign = (await t.get(`/v3/${other.projectId}/kb/namespace/all`, { token: other.admin.token })).body[0].id;
    const contents = async () => (await t.get(`/v3/${p.projectId}/kb?limit=100`, { token: p.admin.token })).body.count;
    const before = await contents();
    const res = await t.post(`/v3/${p.projectId}/kb/proposals/${proposal._id}/accept`, { token: p.admin.token, body: { namespace: foreign } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_USER_INPUT', field: 'namespace' });
    expect(await contents()).toBe(before);
    expect((await proposalAsking(p, /student/i)).status).toBe('open');
  });

  it('lets agents read but only admins decide', async () => {
    const proposal = await proposalAsking(p, /student/i);
    expect((await t.post(`/v3/${p.projectId}/kb/proposals/${proposal._id}/accept`, { token: p.agent.token, body: {} })).status).toBe(403);
    expect((await t.patch(`/v3/${p.projectId}/kb/proposals/${proposal._id}`, { token: p.agent.token, body: { answer: 'x' } })).status).toBe(403);
    expect((await t.post(`/v3/${p.projectId}/kb/proposals/${proposal._id}/dismiss`, { token: p.agent.token })).status).toBe(403);
  });

  it("answers 404 for another project's proposal", async () => {
    const proposal = await proposalAsking(p, /student/i);
    const res = await t.post(`/v3/${other.projectId}/kb/proposals/${proposal._id}/dismiss`, { token: other.admin.token });
    expect(res.status).toBe(404);
    expect((await proposalAsking(p, /student/i)).status).toBe('open');
  });

  it('dismissing keeps the question out of the open list, even when asked again', async () => {
    const proposal = await proposalAsking(p, /student/i);
    const res = await t.post(`/v3/${p.projectId}/kb/proposals/${proposal._id}/dismiss`, { token: p.admin.token });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('dismissed');
    await resolved(p, 'Is there a student discount on the yearly plan please?', 'Yes, 30%.');
    await caughtUp(p);
    expect(await proposalAsking(p, /student/i)).toBeUndefined();
    expect(await proposalAsking(p, /student/i, 'dismissed')).toMatchObject({ count: 2 });
  });

  it('is the same over GraphQL', async () => {
    await resolved(p, 'Can I return shoes after 60 days?', 'Returns are accepted within 30 days only.');
    await caughtUp(p);
    const proposal = await proposalAsking(p, /shoes/i);
    const res = await t.gql(
      `mutation($p: String!, $id: String!) { acceptKbProposal(project_id: $p, proposal_id: $id, answer: "Within 30 days.") { status answer content_id } }`,
      { p: p.projectId, id: proposal._id },
      p.admin.token,
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.acceptKbProposal).toMatchObject({ status: 'accepted', answer: 'Within 30 days.', content_id: expect.any(String) });
  });
});

describe('filing gaps', () => {
  // Questions over a small shop vocabulary, a few words in most of them: whether two of them
  // cluster turns on how rare their shared words are in what was learned so far.
  const words = 'parcel refund late order damaged courier invoice Norway discount voucher account password'.split(' ');
  let seed = 11;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const asked: Array<[string, string]> = Array.from({ length: 16 }, (_, i) => {
    const own = new Set(Array.from({ length: 3 + (i % 3) }, () => words[Math.floor(words.length ** random()) - 1]));
    return [`${[...own].join(' ')}?`, `Answer ${i}: ${[...own].reverse().join(', ')}.`];
  });
  const clusters = async (project: SeededProject) => {
    const res = await proposals(project, project.admin.token, '?limit=100');
    expect(res.status).toBe(200);
    return res.body.map((x: { question: string; count: number; examples: string[] }) => ({ question: x.question, count: x.count, examples: [...x.examples].sort() })).sort((a: { question: string }, b: { question: string }) => a.question.localeCompare(b.question));
  };

  /** The closes written while `consumer` writes nothing for the project, then written at once. */
  async function closedWhileHeld(consumer: string, name: string) {
    const project = await t.seedProject(name);
    const held = t.infra.eventConsumers.consumer(consumer)!;
    const handle = held.handle.bind(held);
    let release!: () => void;
    const holding = new Promise<void>((resolve) => (release = resolve));
    // Its batches are read but not written until released (without holding the process's slot, so the other consumer goes on).
    held.handle = async (projectId, events) => {
      const work = await handle(projectId, events);
      if (projectId !== project.projectId) return work;
      return { ...work, settled: holding.then(() => work?.settled) };
    };
    try {
      for (const [question, answer] of asked) await resolved(project, question, answer);
    } finally {
      release();
    }
    await caughtUp(project);
    held.handle = handle;
    return project;
  }

  it('clusters closes the same whether read one by one, ahead of the history or behind it', async () => {
    const oneByOne = await t.seedProject('Gaps one by one');
    for (const [question, answer] of asked) {
      await resolved(oneByOne, question, answer);
      await caughtUp(oneByOne);
    }
    const expected = await clusters(oneByOne);
    expect(expected.length).toBeGreaterThan(1);
    // The history held: the gaps wait for it.
    expect(await clusters(await closedWhileHeld('assistant-history', 'Gaps before the history'))).toEqual(expected);
    // The gaps held: the history learns the later closes first.
    expect(await clusters(await closedWhileHeld('assistant-gaps', 'Gaps after the history'))).toEqual(expected);
  });
});
