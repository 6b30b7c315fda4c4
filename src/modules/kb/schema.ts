import { builder } from '../../graphql/builder.js';
import { recordFields } from '../../graphql/record-fields.js';
import type { RestRoutes } from '../../rest/route-config.js';
import { minRole } from '../../graphql/scopes.js';
import { definedArgs } from '../../graphql/args.js';
import type { Context } from '../../context.js';
import type { LoggedEvent } from '../../infra/event-log.js';
import { projectEvents } from '../../realtime/event-stream.js';
import type { ContentRecord, UpsertOutcome } from './contents.js';
import type { DeleteOutcome, KnowledgeBaseRecord } from './namespaces.js';
import type { FeedbackOutcome, PhrasingRecord } from './learning/learning.js';
import type { QaPiece, QaResult } from './answering/qa.js';
import { draftStream, type AnswerDraft } from './answering/answer-drafts.js';
import { memberOf } from '../requests/actor.js';
import { uploadKbContent } from './reading/upload.js';
import type { KbFeedback as KbFeedbackRecord } from '../../generated/prisma/client.js';
import type { PreviewSettings } from './answering/settings.js';
import type { SitemapResult } from './reading/sitemap.js';
import { contentStatus } from './indexing/status.js';

const actorId = async (ctx: Context) => (await ctx.principal())!.userId;

const KbPreviewSettings = builder.objectRef<PreviewSettings>('KbPreviewSettings').implement({
  description: 'Model settings of a knowledge base: the defaults of its question answering.',
  fields: (t) => ({
    model: t.exposeString('model', { nullable: false }),
    max_tokens: t.exposeInt('max_tokens', { nullable: false, description: '1 to 8192.' }),
    temperature: t.exposeFloat('temperature', { nullable: false, description: '0 to 2.' }),
    top_k: t.exposeInt('top_k', { nullable: false, description: 'Chunks used to answer, 1 to 50.' }),
    context: t.exposeString('context', { nullable: false, description: 'System context given to the model.' }),
  }),
});

const KbPreviewSettingsInput = builder.inputType('KbPreviewSettingsInput', {
  description: 'Settings to change; absent fields keep their value.',
  fields: (t) => ({
    model: t.string(),
    max_tokens: t.int(),
    temperature: t.float(),
    top_k: t.int(),
    context: t.string(),
  }),
});

export const KnowledgeBase = builder.objectRef<KnowledgeBaseRecord>('KnowledgeBase').implement({
  description: 'A knowledge base (namespace) of a project; its id is the `namespace` of its contents.',
  fields: (t) => ({
    ...recordFields(t),
    name: t.exposeString('name', { nullable: false }),
    id_project: t.exposeString('id_project', { nullable: false }),
    default: t.exposeBoolean('default', { nullable: false }),
    preview_settings: t.field({
      type: KbPreviewSettings,
      nullable: false,
      resolve: (kb, _args, ctx) => ctx.services.kb.namespaces.settings(kb),
    }),
    createdBy: t.exposeString('createdBy'),
  }),
});

export const KbContent = builder.objectRef<ContentRecord>('KbContent').implement({
  description: `A knowledge-base content. status: ${contentStatus.notQueued} not in queue, ${contentStatus.queued} in queue, ${contentStatus.indexing} indexing, ${contentStatus.indexed} indexed, ${contentStatus.failed} error (reason in \`error\`).`,
  fields: (t) => ({
    ...recordFields(t),
    name: t.exposeString('name', { nullable: false }),
    id_project: t.exposeString('id_project', { nullable: false }),
    type: t.exposeString('type', { nullable: false, description: 'url, text, pdf, docx or faq.' }),
    source: t.exposeString('source', { description: 'The document url (url, pdf, docx), or the file name of an upload.' }),
    content: t.exposeString('content', { nullable: false, description: 'The text (text), or question, line break, answer (faq).' }),
    namespace: t.exposeString('namespace', { nullable: false }),
    status: t.exposeInt('status', { nullable: false }),
    error: t.exposeString('error', { description: 'Why indexing failed (status 400) or is being retried.' }),
    helpfulCount: t.exposeInt('helpfulCount', { nullable: false, description: 'Visitors\' 👍 on bot answers citing this content first.' }),
    unhelpfulCount: t.exposeInt('unhelpfulCount', { nullable: false, description: 'Visitors\' 👎 on bot answers citing this content first.' }),
    createdBy: t.exposeString('createdBy'),
  }),
});

const KbContentListQuery = builder
  .objectRef<{ limit: number; sortField: string; direction: number }>('KbContentListQuery')
  .implement({
    fields: (t) => ({
      limit: t.exposeInt('limit', { nullable: false }),
      sortField: t.exposeString('sortField', { nullable: false }),
      direction: t.exposeInt('direction', { nullable: false }),
    }),
  });

const KbContentList = builder
  .objectRef<{ count: number; query: { limit: number; sortField: string; direction: number }; kbs: ContentRecord[] }>('KbContentList')
  .implement({
    fields: (t) => ({
      count: t.exposeInt('count', { nullable: false }),
      query: t.field({ type: KbContentListQuery, nullable: false, resolve: (l) => l.query }),
      kbs: t.field({ type: [KbContent], nullable: false, resolve: (l) => l.kbs }),
    }),
  });

const KbUpsertInfo = builder.objectRef<UpsertOutcome['lastErrorObject']>('KbUpsertInfo').implement({
  fields: (t) => ({
    n: t.exposeInt('n', { nullable: false }),
    updatedExisting: t.exposeBoolean('updatedExisting', { nullable: false }),
    upserted: t.exposeString('upserted', { description: 'Id of the content created; null when an existing one was replaced.' }),
  }),
});

const KbUpsertResult = builder.objectRef<UpsertOutcome>('KbUpsertResult').implement({
  fields: (t) => ({
    lastErrorObject: t.field({ type: KbUpsertInfo, nullable: false, resolve: (r) => r.lastErrorObject }),
    value: t.field({ type: KbContent, nullable: false, resolve: (r) => r.value }),
  }),
});

const KbDeleteResult = builder.objectRef<DeleteOutcome>('KbDeleteResult').implement({
  fields: (t) => ({
    success: t.exposeBoolean('success', { nullable: false }),
    message: t.exposeString('message', { nullable: false }),
  }),
});

const KbSitemapError = builder.objectRef<SitemapResult['errors'][number]>('KbSitemapError').implement({
  fields: (t) => ({
    url: t.exposeString('url', { nullable: false }),
    message: t.exposeString('message', { nullable: false }),
  }),
});

const KbSitemap = builder.objectRef<SitemapResult>('KbSitemap').implement({
  fields: (t) => ({
    url: t.exposeString('url', { nullable: false }),
    sites: t.exposeStringList('sites', { nullable: false }),
    errors: t.field({ type: [KbSitemapError], nullable: false, resolve: (s) => s.errors }),
  }),
});

const KbAnswer = builder.objectRef<QaResult>('KbAnswer').implement({
  description: 'An answer from a knowledge base; `ids` and `sources` cite the contents it used.',
  fields: (t) => ({
    answer: t.exposeString('answer', { nullable: false }),
    success: t.exposeBoolean('success', { nullable: false }),
    namespace: t.exposeString('namespace', { nullable: false }),
    id: t.exposeString('id', { description: 'The first content cited.' }),
    ids: t.exposeStringList('ids', { nullable: false }),
    source: t.exposeString('source'),
    sources: t.exposeStringList('sources', { nullable: false }),
    content_chunks: t.exposeStringList('content_chunks', { description: 'The chunks the answer was written from.' }),
    prompt_token_size: t.exposeInt('prompt_token_size', { nullable: false }),
    error_message: t.exposeString('error_message'),
    chat_history_dict: t.field({
      type: 'JSON',
      nullable: false,
      description: 'The conversation so far, this turn included: {"0": {question, answer}, ...}.',
      resolve: (a) => a.chat_history_dict,
    }),
  }),
});

const KbAnswerPiece = builder.objectRef<QaPiece>('KbAnswerPiece').implement({
  description: 'A piece of a streamed answer: `delta` (text to append), then a last piece with `done` and the whole `result`.',
  fields: (t) => ({
    delta: t.string({ resolve: (p) => p.delta ?? null, description: 'Text to append to what came before; null on the last piece.' }),
    done: t.boolean({ nullable: false, resolve: (p) => !!p.result }),
    result: t.field({ type: KbAnswer, resolve: (p) => p.result ?? null, description: 'The whole answer (as askKb gives it), on the last piece.' }),
  }),
});

const KbPhrasing = builder.objectRef<PhrasingRecord>('KbPhrasing').implement({
  description: 'A learned phrasing: a question an agent confirmed the content answers; retrieval ranks it like the content\'s own question.',
  fields: (t) => ({
    ...recordFields(t),
    id_project: t.exposeString('id_project', { nullable: false }),
    namespace: t.exposeString('namespace', { nullable: false }),
    content_id: t.exposeString('contentId', { nullable: false }),
    question: t.exposeString('question', { nullable: false }),
    createdBy: t.exposeString('createdBy', { nullable: false }),
  }),
});

const KbFeedbackResult = builder.objectRef<FeedbackOutcome>('KbFeedbackResult').implement({
  fields: (t) => ({
    success: t.exposeBoolean('success', { nullable: false }),
    namespace: t.exposeString('namespace', { nullable: false }),
    id: t.exposeString('id', { nullable: false, description: 'The content.' }),
    helpful: t.exposeBoolean('helpful', { nullable: false }),
    phrasing: t.field({ type: KbPhrasing, resolve: (r) => r.phrasing, description: 'The learned phrasing (helpful: true).' }),
  }),
});

const KbFeedbackEntry = builder.objectRef<KbFeedbackRecord>('KbFeedbackEntry').implement({
  description: 'Feedback on an answer: an agent\'s (origin agent) or a visitor\'s thumbs on a bot answer (origin visitor, counted, not learned from).',
  fields: (t) => ({
    ...recordFields(t),
    namespace: t.exposeString('namespace', { nullable: false }),
    content_id: t.exposeString('contentId', { nullable: false }),
    question: t.exposeString('question', { nullable: false }),
    helpful: t.exposeBoolean('helpful', { nullable: false }),
    origin: t.exposeString('origin', { nullable: false, description: 'agent or visitor' }),
    request_id: t.exposeString('request_id'),
    message_id: t.exposeString('message_id'),
    createdBy: t.exposeString('createdBy', { nullable: false }),
  }),
});

const KbAnswerDraft = builder.objectRef<AnswerDraft>('KbAnswerDraft').implement({
  description: 'A bot\'s knowledge answer as it is written (live only); its message, posted when complete, carries attributes.kb.draft_id.',
  fields: (t) => ({
    request_id: t.exposeString('request_id', { nullable: false }),
    draft_id: t.exposeString('draft_id', { nullable: false }),
    sender: t.exposeString('sender', { nullable: false }),
    delta: t.exposeString('delta', { nullable: false }),
    text: t.exposeString('text', { nullable: false, description: 'The whole text so far.' }),
    done: t.exposeBoolean('done', { nullable: false }),
  }),
});

const KbIndexingEvent = builder.objectRef<LoggedEvent>('KbIndexingEvent').implement({
  description: 'A status change of a content of the knowledge base (kb.content.status, kb.content.indexed, ...).',
  fields: (t) => ({
    seq: t.exposeInt('seq', { nullable: false }),
    name: t.exposeString('name', { nullable: false }),
    content_id: t.string({ nullable: false, resolve: (e) => e.subject }),
    namespace: t.string({ nullable: false, resolve: (e) => String(e.payload.namespace ?? '') }),
    status: t.int({ resolve: (e) => (typeof e.payload.status === 'number' ? e.payload.status : null) }),
    error: t.string({ resolve: (e) => (typeof e.payload.error === 'string' ? e.payload.error : null) }),
    chunks: t.int({ resolve: (e) => (typeof e.payload.chunks === 'number' ? e.payload.chunks : null) }),
    createdAt: t.exposeString('createdAt', { nullable: false }),
  }),
});

builder.queryFields((t) => ({
  kbNamespaces: t.field({
    type: [KnowledgeBase],
    nullable: false,
    description: 'The knowledge bases of the project; the default one always among them.',
    args: { project_id: t.arg.string({ required: true }) },
    authScopes: minRole('admin'),
    resolve: async (_root, args, ctx) => ctx.services.kb.namespaces.list(args.project_id, await actorId(ctx)),
  }),
  kbContents: t.field({
    type: KbContentList,
    nullable: false,
    args: {
      project_id: t.arg.string({ required: true }),
      namespace: t.arg.string({ description: 'Default: the default knowledge base.' }),
      status: t.arg.int(),
      type: t.arg.string(),
      limit: t.arg.int({ description: 'Page size, default 20.' }),
      page: t.arg.int({ description: 'From 0 (the first page).' }),
      sortField: t.arg.string({ description: 'updatedAt (default), createdAt, name, type, source or status.' }),
      direction: t.arg.int({ description: '-1 descending (default), 1 ascending.' }),
      search: t.arg.string({ description: 'Text searched in source.' }),
    },
    authScopes: minRole('admin'),
    resolve: async (_root, { project_id, ...input }, ctx) =>
      ctx.services.kb.contents.list(project_id, await actorId(ctx), definedArgs(input)),
  }),
  kbContent: t.field({
    type: KbContent,
    nullable: false,
    args: { project_id: t.arg.string({ required: true }), content_id: t.arg.string({ required: true }) },
    authScopes: minRole('admin'),
    resolve: (_root, args, ctx) => ctx.services.kb.contents.get(args.project_id, args.content_id),
  }),
  kbPhrasings: t.field({
    type: [KbPhrasing],
    nullable: false,
    description: 'The learned phrasings of a content, newest first.',
    args: { project_id: t.arg.string({ required: true }), content_id: t.arg.string({ required: true }) },
    authScopes: minRole('agent'),
    resolve: (_root, args, ctx) => ctx.services.kb.learning.phrasings(args.project_id, args.content_id),
  }),
  kbFeedbackList: t.field({
    type: [KbFeedbackEntry],
    nullable: false,
    description: 'Recorded feedback of a knowledge base, newest first: visitors\' thumbs (origin visitor) for agents to confirm with kbFeedback.',
    args: {
      project_id: t.arg.string({ required: true }),
      namespace: t.arg.string({ description: 'Default: the default knowledge base.' }),
      origin: t.arg.string({ description: 'agent or visitor' }),
      limit: t.arg.int({ description: '1 to 200, default 50.' }),
    },
    authScopes: minRole('agent'),
    resolve: async (_root, { project_id, ...input }, ctx) =>
      ctx.services.kb.learning.listFeedback(project_id, await actorId(ctx), definedArgs(input)),
  }),
}));

builder.mutationFields((t) => ({
  createKbNamespace: t.field({
    type: KnowledgeBase,
    nullable: false,
    args: {
      project_id: t.arg.string({ required: true }),
      name: t.arg.string(),
      preview_settings: t.arg({ type: KbPreviewSettingsInput }),
    },
    authScopes: minRole('admin'),
    resolve: async (_root, { project_id, preview_settings, ...input }, ctx) =>
      ctx.services.kb.namespaces.create(project_id, await actorId(ctx), {
        ...definedArgs(input),
        ...(preview_settings ? { preview_settings: definedArgs(preview_settings) } : {}),
      }),
  }),
  updateKbNamespace: t.field({
    type: KnowledgeBase,
    nullable: false,
    args: {
      project_id: t.arg.string({ required: true }),
      id: t.arg.string({ required: true }),
      name: t.arg.string(),
      preview_settings: t.arg({ type: KbPreviewSettingsInput }),
    },
    authScopes: minRole('admin'),
    resolve: (_root, { project_id, id, preview_settings, ...input }, ctx) =>
      ctx.services.kb.namespaces.update(project_id, id, {
        ...definedArgs(input),
        ...(preview_settings ? { preview_settings: definedArgs(preview_settings) } : {}),
      }),
  }),
  deleteKbNamespace: t.field({
    type: KbDeleteResult,
    nullable: false,
    description: 'Deletes a knowledge base and its contents; with contents_only=true only the contents (the only choice for the default one).',
    args: {
      project_id: t.arg.string({ required: true }),
      id: t.arg.string({ required: true }),
      contents_only: t.arg.boolean(),
    },
    authScopes: minRole('admin'),
    resolve: (_root, { project_id, id, ...input }, ctx) => ctx.services.kb.namespaces.delete(project_id, id, definedArgs(input)),
  }),
  createKbContent: t.field({
    type: KbUpsertResult,
    nullable: false,
    description: 'Adds a content (status -1 in the answer, then queued for indexing); url, pdf and docx upsert on (namespace, type, source).',
    args: {
      project_id: t.arg.string({ required: true }),
      name: t.arg.string(),
      type: t.arg.string(),
      source: t.arg.string(),
      content: t.arg.string(),
      namespace: t.arg.string(),
    },
    authScopes: minRole('admin'),
    resolve: async (_root, { project_id, ...input }, ctx) =>
      ctx.services.kb.contents.create(project_id, await actorId(ctx), definedArgs(input)),
  }),
  createKbContents: t.field({
    type: [KbContent],
    nullable: false,
    description: 'One url content per url of `list`, named after it.',
    args: {
      project_id: t.arg.string({ required: true }),
      namespace: t.arg.string(),
      list: t.arg.stringList(),
    },
    authScopes: minRole('admin'),
    resolve: async (_root, { project_id, ...input }, ctx) =>
      ctx.services.kb.contents.createMany(project_id, await actorId(ctx), definedArgs(input)),
  }),
  readKbSitemap: t.field({
    type: KbSitemap,
    nullable: false,
    description: 'The page urls of a sitemap (sitemap indexes followed); nothing is stored.',
    args: {
      project_id: t.arg.string({ required: true }),
      sitemap: t.arg.string({ description: 'Url of the sitemap.' }),
      list: t.arg.stringList({ description: 'Further sitemap urls.' }),
    },
    authScopes: minRole('admin'),
    resolve: (_root, { project_id: _project, ...input }, ctx) => ctx.services.kb.sitemap(definedArgs(input)),
  }),
  askKb: t.field({
    type: KbAnswer,
    nullable: false,
    description: 'Answers a question from a knowledge base; settings default to its preview_settings.',
    args: {
      project_id: t.arg.string({ required: true }),
      question: t.arg.string(),
      namespace: t.arg.string(),
      model: t.arg.string(),
      system_context: t.arg.string(),
      max_tokens: t.arg.int(),
      temperature: t.arg.float(),
      top_k: t.arg.int(),
      chat_history_dict: t.arg({ type: 'JSON', description: '{"0": {question, answer}, ...}: the conversation so far.' }),
    },
    authScopes: minRole('admin'),
    resolve: async (_root, { project_id, ...input }, ctx) =>
      ctx.services.kb.qa.ask(project_id, await actorId(ctx), definedArgs(input)),
  }),
  kbFeedback: t.field({
    type: KbFeedbackResult,
    nullable: false,
    description:
      'An agent\'s verdict on content `id` as the answer to `question`: helpful true makes the question a learned phrasing of it (used by retrieval at once); false keeps it from answering that question first again.',
    args: {
      project_id: t.arg.string({ required: true }),
      namespace: t.arg.string({ description: 'Default: the default knowledge base.' }),
      question: t.arg.string(),
      id: t.arg.string({ description: 'The content.' }),
      helpful: t.arg.boolean(),
    },
    authScopes: minRole('agent'),
    resolve: async (_root, { project_id, ...input }, ctx) => ctx.services.kb.learning.feedback(project_id, await actorId(ctx), definedArgs(input)),
  }),
  deleteKbPhrasing: t.field({
    type: KbPhrasing,
    nullable: false,
    description: 'Forgets a learned phrasing; answers it.',
    args: {
      project_id: t.arg.string({ required: true }),
      content_id: t.arg.string({ required: true }),
      phrasing_id: t.arg.string({ required: true }),
    },
    authScopes: minRole('agent'),
    resolve: (_root, args, ctx) => ctx.services.kb.learning.removePhrasing(args.project_id, args.content_id, args.phrasing_id),
  }),
  kbRateAnswer: t.field({
    type: KbFeedbackEntry,
    nullable: false,
    description: 'A visitor\'s 👍/👎 on a bot\'s knowledge answer (a message with attributes.kb): counted on the content, not learned from.',
    args: {
      project_id: t.arg.string({ required: true }),
      request_id: t.arg.string({ required: true }),
      message_id: t.arg.string({ required: true }),
      helpful: t.arg.boolean(),
    },
    authScopes: minRole('guest'),
    resolve: async (_root, { project_id, request_id, message_id, ...input }, ctx) => {
      const member = await memberOf(ctx, project_id);
      const message = await ctx.services.messages.get(project_id, member, request_id, message_id);
      return ctx.services.kb.learning.visitorFeedback(project_id, await actorId(ctx), message, definedArgs(input));
    },
  }),
  deleteKbContent: t.field({
    type: KbContent,
    nullable: false,
    args: { project_id: t.arg.string({ required: true }), content_id: t.arg.string({ required: true }) },
    authScopes: minRole('admin'),
    resolve: (_root, args, ctx) => ctx.services.kb.contents.delete(args.project_id, args.content_id),
  }),
}));

builder.subscriptionField('kbIndexing', (t) =>
  t.field({
    type: KbIndexingEvent,
    nullable: false,
    description: 'Indexing progress of a knowledge base: its contents\' status changes. Pass `after` (a seq you have) to resume.',
    args: {
      project_id: t.arg.string({ required: true }),
      namespace: t.arg.string({ required: true }),
      after: t.arg.int(),
    },
    authScopes: minRole('admin'),
    // Scope checks guard `resolve`; a subscription must also be refused before it starts.
    subscribe: async (_root, args, ctx) => {
      const { infra, kb } = ctx.services;
      const events = projectEvents(infra, args.project_id, args.after);
      await ctx.requireRole(args.project_id, 'admin');
      await kb.namespaces.get(args.project_id, args.namespace);
      return events.stream((event) => event.name.startsWith('kb.') && event.payload.namespace === args.namespace);
    },
    resolve: (event) => event,
  }),
);

builder.subscriptionFields((t) => ({
  kbAnswerStream: t.field({
    type: KbAnswerPiece,
    nullable: false,
    description:
      'Answers a question as askKb does, as it is written: pieces with `delta`, then one with `done` and `result`. Without a model the answer comes as one piece.',
    args: {
      project_id: t.arg.string({ required: true }),
      namespace: t.arg.string(),
      question: t.arg.string({ required: true }),
      model: t.arg.string(),
      system_context: t.arg.string(),
      max_tokens: t.arg.int(),
      temperature: t.arg.float(),
      top_k: t.arg.int(),
      chat_history_dict: t.arg({ type: 'JSON' }),
    },
    authScopes: minRole('admin'),
    subscribe: async (_root, { project_id, ...input }, ctx) => {
      await ctx.requireRole(project_id, 'admin');
      const pieces = ctx.services.kb.qa.stream(project_id, await actorId(ctx), definedArgs(input));
      // The first piece is awaited here, so bad input is refused as the subscription starts.
      const first = await pieces.next();
      return (async function* () {
        if (!first.done) yield first.value;
        yield* pieces;
      })();
    },
    resolve: (piece: QaPiece) => piece,
  }),
  kbAnswerDrafts: t.field({
    type: KbAnswerDraft,
    nullable: false,
    description: 'Bots\' knowledge answers of a request as they are written (live only, nothing replayed).',
    args: { project_id: t.arg.string({ required: true }), request_id: t.arg.string({ required: true }) },
    authScopes: minRole('guest'),
    subscribe: async (_root, args, ctx) => {
      await ctx.services.requests.get(args.project_id, await memberOf(ctx, args.project_id), args.request_id);
      return draftStream(ctx.services.infra.bus, args.project_id, args.request_id);
    },
    resolve: (draft: AnswerDraft) => draft,
  }),
}));

export const routes: RestRoutes = {
  'Query.kbNamespaces': { method: 'GET', path: '/:project_id/kb/namespace/all' },
  'Query.kbContents': { method: 'GET', path: '/:project_id/kb' },
  'Query.kbContent': { method: 'GET', path: '/:project_id/kb/:content_id' },
  'Mutation.createKbNamespace': { method: 'POST', path: '/:project_id/kb/namespace' },
  'Mutation.updateKbNamespace': { method: 'PUT', path: '/:project_id/kb/namespace/:id' },
  'Mutation.deleteKbNamespace': { method: 'DELETE', path: '/:project_id/kb/namespace/:id' },
  'Mutation.createKbContents': { method: 'POST', path: '/:project_id/kb/multi', queryToo: ['namespace'] },
  'Mutation.readKbSitemap': { method: 'POST', path: '/:project_id/kb/sitemap' },
  'Mutation.askKb': { method: 'POST', path: '/:project_id/kb/qa' },
  'Mutation.kbFeedback': { method: 'POST', path: '/:project_id/kb/qa/feedback' },
  'Query.kbFeedbackList': { method: 'GET', path: '/:project_id/kb/qa/feedback' },
  'Query.kbPhrasings': { method: 'GET', path: '/:project_id/kb/:content_id/phrasings' },
  'Mutation.deleteKbPhrasing': { method: 'DELETE', path: '/:project_id/kb/:content_id/phrasings/:phrasing_id' },
  'Mutation.kbRateAnswer': { method: 'POST', path: '/:project_id/requests/:request_id/messages/:message_id/kb_feedback' },
  'Mutation.createKbContent': { method: 'POST', path: '/:project_id/kb' },
  'Route.uploadKbContent': uploadKbContent,
  'Mutation.deleteKbContent': { method: 'DELETE', path: '/:project_id/kb/:content_id' },
};
