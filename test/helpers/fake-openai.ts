import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// A local OpenAI-compatible endpoint (chat completions, whole or streamed as server-sent events, and
// embeddings) that records what it receives. Embeddings are hashed bags of words and character trigrams: deterministic, no model.

export interface ChatReply {
  status?: number;
  content?: string;
  error?: string;
  delayMs?: number;
  promptTokens?: number;
  /** Streamed requests (stream: true): the answer in these pieces (default: word by word). */
  pieces?: string[];
  /** Streamed requests: the pieces after the first wait for this (a test sees the first one arrive alone). */
  hold?: Promise<void>;
}

export interface FakeOpenAI {
  /** Base URL to configure, ending in /v1. */
  url: string;
  chatRequests: Array<Record<string, any>>;
  embeddingRequests: Array<Record<string, any>>;
  /** Decides each chat answer; the default echoes a fixed sentence citing passage 1. */
  onChat: (body: Record<string, any>) => ChatReply;
  /** Status to answer embeddings with instead of vectors (failures). */
  embeddingsStatus?: number;
  /** Vectors to answer instead of the hashed embedding (a test that needs meanings words do not show). */
  embed?: (text: string) => number[] | undefined;
  close(): Promise<void>;
}

const stopWords = new Set('a an and are as at be by can do does for from how i in is it my of on or the to was what when where which who why will with you your'.split(' '));

function fnv1a(text: string) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** A unit vector of hashed word and trigram counts. */
export function hashedEmbedding(text: string, dimensions = 256): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  const add = (feature: string, weight: number) => {
    const h = fnv1a(feature);
    vector[h % dimensions] += (h & 0x80000000 ? -1 : 1) * weight;
  };
  const words = (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => !stopWords.has(w));
  for (const word of words) {
    add(`w:${word}`, 1);
    const padded = `^${word}$`;
    for (let i = 0; i + 3 <= padded.length; i++) add(`t:${padded.slice(i, i + 3)}`, 0.3);
  }
  const norm = Math.sqrt(vector.reduce((s, v) => s + v * v, 0)) || 1;
  return vector.map((v) => v / norm);
}

/** A chat completion as server-sent events: one chunk per piece, the finish, the usage when asked, [DONE]. */
async function streamReply(response: import('node:http').ServerResponse, body: Record<string, any>, reply: ChatReply, n: number) {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const content = reply.content ?? '';
  const pieces = reply.pieces ?? content.match(/\S+\s*|\s+/g) ?? [];
  const base = { id: `chatcmpl-${n}`, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: body.model };
  const event = (payload: unknown) => response.write(`data: ${JSON.stringify(payload)}\n\n`);
  event({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
  for (const [i, piece] of pieces.entries()) {
    if (i === 1 && reply.hold) await reply.hold;
    if (response.destroyed) return;
    event({ ...base, choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] });
  }
  event({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
  if (body.stream_options?.include_usage) {
    const prompt = reply.promptTokens ?? 321;
    event({ ...base, choices: [], usage: { prompt_tokens: prompt, completion_tokens: pieces.length, total_tokens: prompt + pieces.length } });
  }
  response.end('data: [DONE]\n\n');
}

export async function startFakeOpenAI(dimensions = 256): Promise<FakeOpenAI> {
  const fake: FakeOpenAI = {
    url: '',
    chatRequests: [],
    embeddingRequests: [],
    onChat: () => ({ content: 'Here is the answer [1].' }),
    close: async () => {},
  };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      let body: Record<string, any> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
      } catch {
        body = {};
      }
      const json = (status: number, payload: unknown) => {
        if (response.destroyed) return;
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(payload));
      };
      if (request.url === '/v1/chat/completions') {
        fake.chatRequests.push({ ...body, authorization: request.headers.authorization });
        const reply = fake.onChat(body);
        const send = () => {
          if (reply.status && reply.status >= 400) {
            json(reply.status, { error: { message: reply.error ?? `failure ${reply.status}`, type: 'test_error', code: null } });
            return;
          }
          if (body.stream) {
            void streamReply(response, body, reply, fake.chatRequests.length);
            return;
          }
          json(200, {
            id: `chatcmpl-${fake.chatRequests.length}`,
            object: 'chat.completion',
            created: Math.floor(Date.now() / 1000),
            model: body.model,
            choices: [{ index: 0, message: { role: 'assistant', content: reply.content ?? '' }, finish_reason: 'stop' }],
            usage: { prompt_tokens: reply.promptTokens ?? 321, completion_tokens: 9, total_tokens: (reply.promptTokens ?? 321) + 9 },
          });
        };
        if (reply.delayMs) setTimeout(send, reply.delayMs);
        else send();
        return;
      }
      if (request.url === '/v1/embeddings') {
        fake.embeddingRequests.push({ ...body, authorization: request.headers.authorization });
        if (fake.embeddingsStatus) {
          json(fake.embeddingsStatus, { error: { message: `failure ${fake.embeddingsStatus}`, type: 'test_error' } });
          return;
        }
        const inputs: string[] = Array.isArray(body.input) ? body.input : [body.input];
        const data = inputs.map((text, index) => {
          const vector = fake.embed?.(String(text)) ?? hashedEmbedding(String(text), body.dimensions ?? dimensions);
          const embedding = body.encoding_format === 'base64' ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector;
          return { object: 'embedding', index, embedding };
        });
        json(200, { object: 'list', data, model: body.model, usage: { prompt_tokens: 1, total_tokens: 1 } });
        return;
      }
      json(404, { error: { message: `no route ${request.url}` } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  fake.url = `http://127.0.0.1:${port}/v1`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
