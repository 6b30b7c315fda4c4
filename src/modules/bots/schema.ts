import { builder } from '../../graphql/builder.js';
import { recordFields } from '../../graphql/record-fields.js';
import type { RestAliases, RestRoutes } from '../../rest/route-config.js';
import { minRole } from '../../graphql/scopes.js';
import { definedArgs } from '../../graphql/args.js';
import type { BotRecord } from './service.js';
import type { IntentRecord } from './intents.js';

export const Bot = builder.objectRef<BotRecord>('Bot').implement({
  description: 'A chatbot: `internal` ones answer from their intents, `external` ones from the engine at `url`.',
  fields: (t) => ({
    ...recordFields(t),
    id_project: t.exposeString('id_project', { nullable: false }),
    name: t.exposeString('name', { nullable: false }),
    type: t.exposeString('type', { nullable: false, description: '`internal` or `external`.' }),
    external: t.boolean({ nullable: false, resolve: (b) => b.type === 'external' }),
    secret: t.string({
      description: 'Signs the bot\'s JWTs. Shown to admins of the project only (null for everyone else).',
      resolve: async (b, _args, ctx) => ((await ctx.hasRole(b.id_project, 'admin')) ? b.secret : null),
    }),
    description: t.exposeString('description'),
    url: t.exposeString('url', { description: 'The endpoint of an external bot\'s engine.' }),
    webhook_url: t.exposeString('webhook_url'),
    webhook_enabled: t.exposeBoolean('webhook_enabled'),
    trashed: t.exposeBoolean('trashed', { description: 'True once the bot is deleted.' }),
    attributes: t.field({ type: 'JSON', resolve: (b) => b.attributes }),
    language: t.exposeString('language'),
    kb_namespace: t.exposeString('kb_namespace', { description: 'Knowledge base an internal bot answers from when no intent matches.' }),
    public: t.exposeBoolean('public', { description: 'Shared: any project may fork it.' }),
    createdBy: t.exposeString('createdBy'),
  }),
});

const Intent = builder.objectRef<IntentRecord>('Intent').implement({
  description: 'What a bot answers to a question (a FAQ).',
  fields: (t) => ({
    ...recordFields(t),
    id_project: t.exposeString('id_project', { nullable: false }),
    id_faq_kb: t.exposeString('id_faq_kb', { nullable: false, description: 'The bot.' }),
    intent_display_name: t.exposeString('intent_display_name', { nullable: false, description: 'Unique within the bot.' }),
    question: t.exposeString('question', { description: 'One phrasing per line.' }),
    answer: t.exposeString('answer', { description: 'A line `\\agent` hands off to a human, `\\close` closes the request.' }),
    enabled: t.exposeBoolean('enabled'),
    webhook_enabled: t.exposeBoolean('webhook_enabled'),
    language: t.exposeString('language'),
    attributes: t.field({ type: 'JSON', description: 'Passed on to the answer message (e.g. `attachment` buttons).', resolve: (i) => i.attributes }),
    form: t.field({ type: 'JSON', description: 'Parameters asked before answering: `{fields: [{name, label, regex?, errorLabel?}], cancelCommands?, cancelReply?}`.', resolve: (i) => i.form }),
    createdBy: t.exposeString('createdBy'),
  }),
});

const BotToken = builder.objectRef<{ token: string }>('BotToken').implement({
  fields: (t) => ({
    token: t.exposeString('token', { nullable: false, description: 'Prefixed with `JWT `; the audience is the bot.' }),
  }),
});

const ForkResult = builder.objectRef<{ message: string; bot_id: string }>('ForkResult').implement({
  fields: (t) => ({
    message: t.exposeString('message', { nullable: false }),
    bot_id: t.exposeString('bot_id', { nullable: false, description: 'The copy.' }),
  }),
});

builder.queryFields((t) => ({
  bots: t.field({
    type: [Bot],
    nullable: false,
    description: 'The bots of the project, deleted ones left out.',
    args: { project_id: t.arg.string({ required: true }) },
    authScopes: minRole('agent'),
    resolve: (_root, args, ctx) => ctx.services.bots.list(args.project_id),
  }),
  bot: t.field({
    type: Bot,
    nullable: false,
    args: { project_id: t.arg.string({ required: true }), id: t.arg.string({ required: true }) },
    authScopes: minRole('agent'),
    resolve: (_root, args, ctx) => ctx.services.bots.get(args.project_id, args.id),
  }),
  exportBot: t.field({
    type: 'JSON',
    nullable: false,
    description: 'The bot as a JSON document for `importBot`: its fields and `intents`, or only `intents` with `intentsOnly`.',
    args: { project_id: t.arg.string({ required: true }), id: t.arg.string({ required: true }), intentsOnly: t.arg.boolean() },
    authScopes: minRole('admin'),
    resolve: (_root, args, ctx) => ctx.services.bots.exportJson(args.project_id, args.id, args.intentsOnly ?? false),
  }),
  botToken: t.field({
    type: BotToken,
    nullable: false,
    description: 'A token for the bot\'s engine: with it, the bot posts messages, updates attributes and hands off in its requests.',
    args: { project_id: t.arg.string({ required: true }), id: t.arg.string({ required: true }) },
    authScopes: minRole('admin'),
    resolve: (_root, args, ctx) => ctx.services.bots.token(args.project_id, args.id),
  }),
  intents: t.field({
    type: [Intent],
    nullable: false,
    args: {
      project_id: t.arg.string({ required: true }),
      id_faq_kb: t.arg.string({ description: 'Only this bot\'s intents.' }),
      intent_display_name: t.arg.string(),
      text: t.arg.string({ description: 'Searched in questions and answers, ignoring case.' }),
      sortField: t.arg.string({ description: '`createdAt` (default), `updatedAt` or `intent_display_name`.' }),
      direction: t.arg.int({ description: '1 ascending, -1 descending (default).' }),
      page: t.arg.int({ description: 'From 0.' }),
      limit: t.arg.int({ description: 'Page size, 40 by default, at most 100; 0 means every match.' }),
    },
    authScopes: minRole('agent'),
    resolve: (_root, { project_id, ...query }, ctx) => ctx.services.intents.list(project_id, definedArgs(query)),
  }),
  intent: t.field({
    type: Intent,
    nullable: false,
    args: { project_id: t.arg.string({ required: true }), id: t.arg.string({ required: true }) },
    authScopes: minRole('agent'),
    resolve: (_root, args, ctx) => ctx.services.intents.get(args.project_id, args.id),
  }),
}));

builder.mutationFields((t) => {
  const botArgs = () => ({
    project_id: t.arg.string({ required: true }),
    name: t.arg.string(),
    description: t.arg.string(),
    type: t.arg.string({ description: '`internal` (default) or `external`.' }),
    url: t.arg.string({ description: 'Required for an external bot.' }),
    language: t.arg.string({ description: 'Two-letter ISO 639-1 code.' }),
    webhook_enabled: t.arg.boolean(),
    webhook_url: t.arg.string(),
    attributes: t.arg({ type: 'JSON' }),
    public: t.arg.boolean({ description: 'Shares the bot: any project may fork it.' }),
    kb_namespace: t.arg.string({ description: 'Knowledge base (id) an internal bot answers from when no intent matches; null: none.' }),
  });
  const intentArgs = () => ({
    project_id: t.arg.string({ required: true }),
    intent_display_name: t.arg.string(),
    question: t.arg.string(),
    answer: t.arg.string(),
    enabled: t.arg.boolean(),
    webhook_enabled: t.arg.boolean(),
    language: t.arg.string(),
    attributes: t.arg({ type: 'JSON' }),
    form: t.arg({ type: 'JSON' }),
  });
  return {
    createBot: t.field({
      type: Bot,
      nullable: false,
      args: {
        ...botArgs(),
        template: t.arg.string({ description: 'Internal bots: `blank`, `handoff` or `example` (default).' }),
      },
      authScopes: minRole('admin'),
      resolve: async (_root, { project_id, ...input }, ctx) =>
        ctx.services.bots.create(project_id, (await ctx.principal())!, definedArgs(input)),
    }),
    updateBot: t.field({
      type: Bot,
      nullable: false,
      description: 'Changes the fields given; null clears description, url and webhook_url.',
      args: { ...botArgs(), id: t.arg.string({ required: true }) },
      authScopes: minRole('admin'),
      resolve: (_root, { project_id, id, ...input }, ctx) =>
        ctx.services.bots.update(project_id, id, definedArgs(input, ['description', 'url', 'webhook_url'])),
    }),
    deleteBot: t.field({
      type: Bot,
      nullable: false,
      description: 'Marks the bot trashed and takes it out of every department.',
      args: { project_id: t.arg.string({ required: true }), id: t.arg.string({ required: true }) },
      authScopes: minRole('admin'),
      resolve: (_root, args, ctx) => ctx.services.bots.remove(args.project_id, args.id),
    }),
    importBot: t.field({
      type: Bot,
      nullable: false,
      description:
        'Imports an exported bot, sent as `uploadFile` or as the body itself. `create` makes a new bot (then `id` is ignored); ' +
        'otherwise the intents go into bot `id`. `replace` first deletes its intents; `overwrite` replaces intents with the same ' +
        '`intent_display_name`, which are otherwise kept.',
      args: {
        ...botArgs(),
        id: t.arg.string({ required: true }),
        create: t.arg.boolean(),
        replace: t.arg.boolean(),
        overwrite: t.arg.boolean(),
        uploadFile: t.arg({ type: 'JSON', description: 'The exported bot (an object, or its JSON text).' }),
        intents: t.arg({ type: 'JSON' }),
      },
      authScopes: minRole('admin'),
      resolve: async (_root, { project_id, id, create, replace, overwrite, uploadFile, ...document }, ctx) =>
        ctx.services.bots.importJson(project_id, (await ctx.principal())!, id, { create, replace, overwrite }, uploadFile ?? definedArgs(document)),
    }),
    forkBot: t.field({
      type: ForkResult,
      nullable: false,
      description:
        'Copies a bot and its intents into `projectid` (default: this project; needs the admin role there too). ' +
        'With `public`, the source may be any project\'s public bot.',
      args: {
        project_id: t.arg.string({ required: true }),
        id: t.arg.string({ required: true }),
        public: t.arg.boolean(),
        projectid: t.arg.string(),
      },
      authScopes: (parent, args) => ({
        $all: {
          ...minRole('admin')(parent, args),
          ...(args.projectid && args.projectid !== args.project_id
            ? { $all: minRole('admin')(parent, { project_id: args.projectid }) }
            : {}),
        },
      }),
      resolve: async (_root, { project_id, id, ...options }, ctx) =>
        ctx.services.bots.fork(project_id, (await ctx.principal())!, id, options),
    }),
    createIntent: t.field({
      type: Intent,
      nullable: false,
      args: { ...intentArgs(), id_faq_kb: t.arg.string({ description: 'The bot.' }) },
      authScopes: minRole('admin'),
      resolve: async (_root, { project_id, ...input }, ctx) =>
        ctx.services.intents.create(project_id, (await ctx.principal())!, definedArgs(input, ['form'])),
    }),
    updateIntent: t.field({
      type: Intent,
      nullable: false,
      description: 'Changes the fields given; null clears the form.',
      args: { ...intentArgs(), id: t.arg.string({ required: true }) },
      authScopes: minRole('admin'),
      resolve: (_root, { project_id, id, ...input }, ctx) =>
        ctx.services.intents.update(project_id, id, definedArgs(input, ['form'])),
    }),
    deleteIntent: t.field({
      type: Intent,
      nullable: false,
      args: { project_id: t.arg.string({ required: true }), id: t.arg.string({ required: true }) },
      authScopes: minRole('admin'),
      resolve: (_root, args, ctx) => ctx.services.intents.remove(args.project_id, args.id),
    }),
  };
});

export const routes: RestRoutes = {
  'Query.bots': { method: 'GET', path: '/:project_id/bots' },
  'Query.exportBot': { method: 'GET', path: '/:project_id/bots/exportjson/:id' },
  'Query.botToken': { method: 'GET', path: '/:project_id/bots/:id/jwt' },
  'Query.bot': { method: 'GET', path: '/:project_id/bots/:id' },
  'Query.intents': { method: 'GET', path: '/:project_id/faq' },
  'Query.intent': { method: 'GET', path: '/:project_id/faq/:id' },
  'Mutation.createBot': { method: 'POST', path: '/:project_id/bots' },
  'Mutation.importBot': { method: 'POST', path: '/:project_id/bots/importjson/:id', queryToo: ['create', 'replace', 'overwrite'], formParts: ['uploadFile'] },
  'Mutation.forkBot': { method: 'POST', path: '/:project_id/bots/fork/:id', queryToo: ['public', 'projectid'] },
  'Mutation.updateBot': { method: 'PUT', path: '/:project_id/bots/:id' },
  'Mutation.deleteBot': { method: 'DELETE', path: '/:project_id/bots/:id' },
  'Mutation.createIntent': { method: 'POST', path: '/:project_id/faq' },
  'Mutation.updateIntent': { method: 'PUT', path: '/:project_id/faq/:id' },
  'Mutation.deleteIntent': { method: 'DELETE', path: '/:project_id/faq/:id' },
};

/** The official JavaScript SDK calls bots `faq_kb`; a sample invocation of fork uses PUT. */
const faqKb = (field: string) => {
  const route = routes[field];
  return { method: route.method, path: route.path.replace('/bots', '/faq_kb') };
};

export const aliases: RestAliases = {
  'Query.bots': [faqKb('Query.bots')],
  'Query.exportBot': [faqKb('Query.exportBot')],
  'Query.botToken': [faqKb('Query.botToken')],
  'Query.bot': [faqKb('Query.bot')],
  'Mutation.createBot': [faqKb('Mutation.createBot')],
  'Mutation.importBot': [faqKb('Mutation.importBot')],
  'Mutation.forkBot': [
    { method: 'PUT', path: '/:project_id/bots/fork/:id' },
    faqKb('Mutation.forkBot'),
    { method: 'PUT', path: '/:project_id/faq_kb/fork/:id' },
  ],
  'Mutation.updateBot': [faqKb('Mutation.updateBot')],
  'Mutation.deleteBot': [faqKb('Mutation.deleteBot')],
};
