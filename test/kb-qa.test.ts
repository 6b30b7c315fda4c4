import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { startFakeOpenAI, type FakeOpenAI } from './helpers/fake-openai.js';
import { waitForStatus } from './helpers/kb-fixtures.js';

const notFoundAnswer = 'I could not find an answer to this question in the knowledge base.';

async function seedKnowledge(t: TestApp, p: SeededProject, settings: Record<string, unknown> = {}) {
  const token = p.admin.token;
  const ns = (await t.post(`/v3/${p.projectId}/kb/namespace`, { token, body: { name: 'Store', preview_settings: settings } })).body.id as string;
  const contents: Record<string, string> = {};
  const add = async (key: string, body: Record<string, unknown>) => {
    const res = await t.post(`/v3/${p.projectId}/kb`, { token, body: { namespace: ns, ...body } });
    contents[key] = res.body.value._id;
    await waitForStatus(t, p.projectId, token, res.body.value._id, 300);
  };
  await add('warranty', {
    type: 'text',
    name: 'Warranty',
    source: 'https://docs.example.test/warranty',
    content: 'Our blenders are covered by a warranty of two years. Toasters have a warranty of one year. Keep your receipt.',
  });
  await add('shipping', {
    type: 'text',
    name: 'Shipping',
    content: 'Orders ship within two working days. Shipping to islands takes a week longer.',
  });
  await add('faq', { type: 'faq', content: 'Can I pay with a gift card?\nYes, gift cards are accepted at checkout.' });
  return { ns, contents };
}

describe('question answering without a model (extractive)', () => {
  let t: TestApp;
  let p: SeededProject;
  let ns: string;
  let contents: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp();
    p = await t.seedProject();
    ({ ns, contents } = await seedKnowledge(t, p));
  });
  afterAll(() => t.close());

  const ask = (body: Record<string, unknown>) => t.post(`/v3/${p.projectId}/kb/qa`, { token: p.admin.token, body: { namespace: ns, ...body } });

  it('answers with the best sentence and cites the content it came from', async () => {
    const res = await ask({ question: 'How long is the warranty on blenders?' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      answer: expect.stringContaining('Our blenders are covered by a warranty of two years.'),
      success: true,
      namespace: ns,
      id: contents.warranty,
      ids: [contents.warranty],
      source: 'https://docs.example.test/warranty',
      sources: ['https://docs.example.test/warranty'],
      content_chunks: [expect.stringContaining('warranty of two years')],
      prompt_token_size: expect.any(Number),
      error_message: null,
      chat_history_dict: { '0': { question: 'How long is the warranty on blenders?', answer: res.body.answer } },
    });
    expect(res.body.prompt_token_size).toBeGreaterThan(10);
  });

  it('answers an faq with its answer, citing a content without source by its name', async () => {
    const res = await ask({ question: 'Do you accept gift cards?' });
    expect(res.body).toMatchObject({ success: true, answer: 'Yes, gift cards are accepted at checkout.', ids: [contents.faq] });
    expect(res.body.sources).toEqual(['Can I pay with a gift card?']);
  });

  it('says so, with success false and no source, when nothing relevant is found', async () => {
    const res = await ask({ question: 'What is the capital of Mongolia?' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: false, answer: notFoundAnswer, id: null, ids: [], source: null, sources: [], content_chunks: null });
    expect(res.body.chat_history_dict).toEqual({});
  });

  it('says so for a knowledge base without contents', async () => {
    const empty = (await t.post(`/v3/${p.projectId}/kb/namespace`, { token: p.admin.token, body: { name: 'Empty' } })).body.id;
    const res = await ask({ namespace: empty, question: 'How long is the warranty?' });
    expect(res.body).toMatchObject({ success: false, answer: notFoundAnswer, namespace: empty });
  });

  it('uses top_k chunks at most', async () => {
    const res = await ask({ question: 'warranty shipping gift card', top_k: 1 });
    expect(res.body.ids).toHaveLength(1);
  });

  it('keeps the conversation in chat_history_dict and answers a follow-up', async () => {
    const history = { '0': { question: 'How long is the warranty on blenders?', answer: 'Two years.' } };
    const res = await ask({ question: 'And on toasters?', chat_history_dict: history });
    expect(res.body.success).toBe(true);
    expect(res.body.answer).toMatch(/Toasters have a warranty of one year/);
    expect(res.body.chat_history_dict).toEqual({ ...history, '1': { question: 'And on toasters?', answer: res.body.answer } });
  });

  it('answers in the default knowledge base when no namespace is given', async () => {
    const res = await t.post(`/v3/${p.projectId}/kb/qa`, { token: p.admin.token, body: { question: 'warranty' } });
    const all = await t.get(`/v3/${p.projectId}/kb/namespace/all`, { token: p.admin.token });
    expect(res.body.namespace).toBe(all.body.find((k: { default: boolean }) => k.default).id);
  });

  it.each([
    [{}, 'question'],
    [{ question: '  ' }, 'question'],
    [{ question: 'q', top_k: 0 }, 'top_k'],
    [{ question: 'q', top_k: 51 }, 'top_k'],
    [{ question: 'q', max_tokens: 8193 }, 'max_tokens'],
    [{ question: 'q', temperature: 2.1 }, 'temperature'],
    [{ question: 'q', chat_history_dict: { first: { question: 'a', answer: 'b' } } }, 'chat_history_dict.first'],
    [{ question: 'q', chat_history_dict: { '0': { question: 'a' } } }, 'chat_history_dict.0.answer'],
    [{ question: 'q', namespace: 'missing' }, 'namespace'],
  ])('answers 400 for %j', async (body, field) => {
    const res = await t.post(`/v3/${p.projectId}/kb/qa`, { token: p.admin.token, body });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_USER_INPUT', field });
  });

  it('answers 403 to an agent', async () => {
    const res = await t.post(`/v3/${p.projectId}/kb/qa`, { token: p.agent.token, body: { question: 'warranty' } });
    expect(res.status).toBe(403);
  });
});

describe('question answering with an OpenAI-compatible model', () => {
  let t: TestApp;
  let p: SeededProject;
  let ns: string;
  let contents: Record<string, string>;
  let llm: FakeOpenAI;
  beforeAll(async () => {
    llm = await startFakeOpenAI();
    // Private addresses stay refused for documents: the model endpoint is allowed as the operator configured it.
    t = await createTestApp({ LLM_BASE_URL: llm.url, LLM_API_KEY: 'sk-test', LLM_MODEL: 'house-model', LLM_TIMEOUT_MS: '1000' });
    p = await t.seedProject();
    ({ ns, contents } = await seedKnowledge(t, p, { context: 'You answer for the Acme store.' }));
  });
  afterAll(async () => {
    await t.close();
    await llm.close();
  });

  const ask = (body: Record<string, unknown>) => t.post(`/v3/${p.projectId}/kb/qa`, { token: p.admin.token, body: { namespace: ns, ...body } });
  const lastPrompt = () => llm.chatRequests.at(-1)!;

  it('sends the retrieved chunks and the system context, and maps the answer and its sources back', async () => {
    llm.onChat = () => ({ content: 'Blenders are covered for two years [1].', promptTokens: 777 });
    const res = await ask({ question: 'How long is the warranty on blenders?', system_context: 'Be brief and polite.' });
    expect(res.status).toBe(200);
    const { messages } = lastPrompt();
    expect(messages[0].role).toBe('system');
    expect(messages[0].content).toContain('Be brief and polite.');
    expect(messages[0].content).toContain('[1] Warranty\nOur blenders are covered by a warranty of two years.');
    expect(messages.at(-1)).toEqual({ role: 'user', content: 'How long is the warranty on blenders?' });
    expect(res.body).toMatchObject({
      answer: 'Blenders are covered for two years.',
      success: true,
      id: contents.warranty,
      ids: [contents.warranty],
      sources: ['https://docs.example.test/warranty'],
      prompt_token_size: 777,
      error_message: null,
    });
    expect(res.body.content_chunks[0]).toContain('warranty of two years');
  });

  it('passes model, max_tokens and temperature, and the key', async () => {
    llm.onChat = () => ({ content: 'Two days [1].' });
    await ask({ question: 'How fast do orders ship?', model: 'other-model', max_tokens: 42, temperature: 0.1 });
    expect(lastPrompt()).toMatchObject({ model: 'other-model', max_tokens: 42, temperature: 0.1, authorization: 'Bearer sk-test' });
  });

  it('defaults the model settings to the knowledge base\'s preview_settings', async () => {
    await t.put(`/v3/${p.projectId}/kb/namespace/${ns}`, {
      token: p.admin.token,
      body: { preview_settings: { model: 'kb-model', max_tokens: 99, temperature: 0.3 } },
    });
    llm.onChat = () => ({ content: 'Two days [1].' });
    await ask({ question: 'How fast do orders ship?' });
    expect(lastPrompt()).toMatchObject({ model: 'kb-model', max_tokens: 99, temperature: 0.3 });
    expect(lastPrompt().messages[0].content).toContain('You answer for the Acme store.');
  });

  it('cites only the passages the model used', async () => {
    llm.onChat = (body) => {
      const system: string = body.messages[0].content;
      const shipping = /\[(\d+)\] Shipping/.exec(system)![1];
      return { content: `Islands take a week longer [${shipping}].` };
    };
    const res = await ask({ question: 'How long does shipping take, and what about the warranty?' });
    expect(res.body.ids).toEqual([contents.shipping]);
    expect(res.body.sources).toEqual(['Shipping']);
    expect(res.body.answer).toBe('Islands take a week longer.');
  });

  it('answers success false when the model finds no answer in the passages', async () => {
    llm.onChat = () => ({ content: 'NO_ANSWER' });
    const res = await ask({ question: 'Is the warranty transferable?' });
    expect(res.body).toMatchObject({ success: false, answer: notFoundAnswer, ids: [], sources: [] });
  });

  it('does not call the model when nothing relevant is retrieved', async () => {
    const before = llm.chatRequests.length;
    const res = await ask({ question: 'What is the capital of Mongolia?' });
    expect(res.body).toMatchObject({ success: false, answer: notFoundAnswer });
    expect(llm.chatRequests.length).toBe(before);
  });

  it('sends the chat history before a follow-up question and returns it with the new turn', async () => {
    llm.onChat = () => ({ content: 'One year [1].' });
    const history = { '0': { question: 'How long is the warranty on blenders?', answer: 'Two years.' } };
    const res = await ask({ question: 'And on toasters?', chat_history_dict: history });
    expect(lastPrompt().messages.slice(1)).toEqual([
      { role: 'user', content: 'How long is the warranty on blenders?' },
      { role: 'assistant', content: 'Two years.' },
      { role: 'user', content: 'And on toasters?' },
    ]);
    expect(lastPrompt().messages[0].content).toContain('Toasters have a warranty of one year.');
    expect(res.body.chat_history_dict).toEqual({ ...history, '1': { question: 'And on toasters?', answer: 'One year.' } });
  });

  it.each([
    ['a rejected key', { status: 401, error: 'Incorrect API key provided' }, /answered 401: Incorrect API key provided/],
    ['a rate limit', { status: 429, error: 'Rate limit reached' }, /answered 429/],
    ['a server error', { status: 500, error: 'boom' }, /answered 500/],
    ['a timeout', { delayMs: 3000, content: 'late' }, /did not answer within 1000 ms/],
  ])('answers success false with error_message, not an error status, on %s', async (_what, reply, message) => {
    llm.onChat = () => reply;
    const res = await ask({ question: 'How long is the warranty on blenders?' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: false, answer: '', ids: [] });
    expect(res.body.error_message).toMatch(message);
  });
});
