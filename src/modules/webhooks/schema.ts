import type { ArgBuilder } from '@pothos/core';
import { builder } from '../../graphql/builder.js';
import { recordFields, type Types } from '../../graphql/record-fields.js';
import type { RestRoutes } from '../../rest/route-config.js';
import { minRole } from '../../graphql/scopes.js';
import { definedArgs } from '../../graphql/args.js';
import type { AttemptRecord } from './delivery.js';
import type { DeliveryPage, DeliveryRecord, SubscriptionRecord, SubscriptionWithSecret } from './service.js';
import { publicKeyOf, schemeOf } from './signature.js';
import type { WebhookEventType } from './event-schemas.js';

// `Subscription` is GraphQL's root type for subscriptions, so the webhook one is `WebhookSubscription`.

function subscriptionFields<T extends SubscriptionRecord>(t: PothosSchemaTypes.ObjectFieldBuilder<Types, T>) {
  const f = t as unknown as PothosSchemaTypes.ObjectFieldBuilder<Types, SubscriptionRecord>;
  return {
    ...recordFields(f),
    id_project: f.exposeString('id_project', { nullable: false }),
    event: f.exposeString('event', { nullable: false, description: 'A catalogue event name, `event.emit` or `event.emit.<NAME>`.' }),
    target: f.exposeString('target', { nullable: false, description: 'The http(s) URL notifications are POSTed to.' }),
    enabled: f.exposeBoolean('enabled', { nullable: false, description: 'False once disabled (410 Gone, failing too long, or by hand).' }),
    failingSince: f.field({ type: 'DateTime', resolve: (s) => s.failingSince, description: 'Start of the current run of failures.' }),
    disabledAt: f.field({ type: 'DateTime', resolve: (s) => s.disabledAt }),
    disabledReason: f.exposeString('disabledReason'),
    signing: f.string({
      nullable: false,
      description: '`hmac` (Standard Webhooks `v1`, a shared `signingSecret`) or `ed25519` (`v1a`, verified with `publicKey`).',
      resolve: (s) => schemeOf(s.signingSecret),
    }),
    publicKey: f.string({
      description: 'For `signing: ed25519`: the public key (`whpk_` + base64 of its 32 raw bytes) deliveries\' `v1a` signatures verify with. Null for hmac.',
      resolve: (s) => publicKeyOf(s.signingSecret),
    }),
    throttle: f.exposeInt('throttle', { description: 'At most this many deliveries a second to the target, across nodes; null: no limit.' }),
    createdBy: f.exposeString('createdBy'),
  };
}

export const WebhookSubscription = builder.objectRef<SubscriptionRecord>('WebhookSubscription').implement({
  description: 'A webhook subscription: an event name bound to a target URL. Its secrets are shown only on creation and rotation.',
  fields: (t) => subscriptionFields(t),
});

// `secret` keeps the meaning legacy (Tiledesk) receivers give it: the value every delivery carries in
// `x-hook-secret`, which they compare with what creation answered. Being sent with every delivery,
// it cannot be the signing key, which is `signingSecret` and leaves only in these two answers.
const WebhookSubscriptionWithSecret = builder.objectRef<SubscriptionWithSecret>('WebhookSubscriptionWithSecret').implement({
  description: 'A subscription with its secrets, returned on creation and rotation only.',
  fields: (t) => ({
    ...subscriptionFields(t),
    secret: t.exposeString('hookSecret', {
      nullable: false,
      description:
        'The value of the legacy `x-hook-secret` header of every delivery (also that header of the creation answer). It signs nothing: verify deliveries with `signingSecret`.',
    }),
    signingSecret: t.string({
      description:
        'The Standard Webhooks signing key (`whsec_...`): `new Webhook(signingSecret).verify(body, headers)`. No delivery carries it. Null for `signing: ed25519`, which shares no secret (see `publicKey`).',
      resolve: (s) => (schemeOf(s.signingSecret) === 'hmac' ? s.signingSecret : null),
    }),
    previousSecretExpiresAt: t.field({
      type: 'DateTime',
      description: 'After a rotation: until then deliveries carry a signature with the previous signing key too.',
      resolve: (s) => s.previousSecretEnd,
    }),
  }),
});

const WebhookAttempt = builder.objectRef<AttemptRecord>('WebhookAttempt').implement({
  description: 'One try at sending a delivery.',
  fields: (t) => ({
    at: t.exposeString('at', { nullable: false }),
    attempt: t.exposeInt('attempt', { description: 'Number among automatic attempts; null for a redelivery.' }),
    statusCode: t.exposeInt('statusCode', { description: 'HTTP status answered; null when none (refused, timeout, connection error).' }),
    durationMs: t.exposeInt('durationMs', { nullable: false }),
    error: t.exposeString('error', { description: 'Why the attempt failed, in words (status, Retry-After, timeout, connection error...).' }),
    reason: t.string({
      description:
        'Why the attempt failed: `http_error`, `rate_limited` (429), `unavailable` (503), `gone` (410), `timeout`, `connection`, `refused` (an address not allowed), `disabled`, `no_attempts_left`; null for a success.',
      resolve: (a) => a.reason ?? null,
    }),
    response: t.exposeString('response', { description: 'The first kilobyte of the response body.' }),
    redelivery: t.exposeBoolean('redelivery', { nullable: false }),
  }),
});

const WebhookDelivery = builder.objectRef<DeliveryRecord>('WebhookDelivery').implement({
  description: 'One event sent to one subscription; its id is the `webhook-id` header of every attempt.',
  fields: (t) => ({
    ...recordFields(t),
    id_project: t.exposeString('id_project', { nullable: false }),
    subscriptionId: t.exposeString('subscriptionId', { nullable: false }),
    eventId: t.exposeString('eventId', { nullable: false }),
    event: t.exposeString('event', { nullable: false }),
    status: t.exposeString('status', { nullable: false, description: '`pending` (attempts left), `succeeded` or `failed`.' }),
    attempts: t.field({
      type: [WebhookAttempt],
      nullable: false,
      resolve: (d) => d.attempts as unknown as AttemptRecord[],
    }),
    nextAttemptAt: t.field({ type: 'DateTime', resolve: (d) => d.nextAttemptAt }),
  }),
});

const WebhookDeliveryPage = builder.objectRef<DeliveryPage>('WebhookDeliveryPage').implement({
  fields: (t) => ({
    count: t.exposeInt('count', { nullable: false }),
    page: t.exposeInt('page', { nullable: false }),
    limit: t.exposeInt('limit', { nullable: false }),
    deliveries: t.field({ type: [WebhookDelivery], nullable: false, resolve: (p) => p.deliveries }),
  }),
});

const WebhookRecovery = builder.objectRef<{ count: number; since: Date }>('WebhookRecovery').implement({
  fields: (t) => ({
    count: t.exposeInt('count', { nullable: false, description: 'Failed deliveries queued to be sent again.' }),
    since: t.field({ type: 'DateTime', nullable: false, resolve: (r) => r.since }),
  }),
});

const WebhookEventTypeRef = builder.objectRef<WebhookEventType>('WebhookEventType').implement({
  description: 'An event a subscription may ask for, with the JSON Schema (2020-12) of its notification body.',
  fields: (t) => ({
    event: t.exposeString('event', { nullable: false }),
    description: t.exposeString('description', { nullable: false }),
    schema: t.field({ type: 'JSON', nullable: false, resolve: (e) => e.schema }),
  }),
});

const projectAndId = (arg: ArgBuilder<Types>) => ({
  project_id: arg.string({ required: true }),
  id: arg.string({ required: true }),
});

builder.queryFields((t) => ({
  webhookEvents: t.field({
    type: [WebhookEventTypeRef],
    nullable: false,
    description:
      'The event catalogue: every event type with the JSON Schema of its notification body ({timestamp, payload, hook}), made from the presenter deliveries are rendered with.',
    authScopes: { authenticated: true },
    resolve: (_root, _args, ctx) => ctx.services.webhooks.eventTypes(),
  }),
  webhookSubscriptions: t.field({
    type: [WebhookSubscription],
    nullable: false,
    args: { project_id: t.arg.string({ required: true }) },
    authScopes: minRole('admin'),
    resolve: (_root, args, ctx) => ctx.services.webhooks.list(args.project_id),
  }),
  webhookSubscription: t.field({
    type: WebhookSubscription,
    nullable: false,
    args: projectAndId(t.arg),
    authScopes: minRole('admin'),
    resolve: (_root, args, ctx) => ctx.services.webhooks.get(args.project_id, args.id),
  }),
  webhookDeliveries: t.field({
    type: WebhookDeliveryPage,
    nullable: false,
    description: 'The delivery log of a subscription, newest first.',
    args: {
      ...projectAndId(t.arg),
      page: t.arg.int({ description: 'Zero-based page number (default 0).' }),
      limit: t.arg.int({ description: 'Page size, 1 to 100 (default 40).' }),
      status: t.arg.string({ description: '`pending`, `succeeded` or `failed`.' }),
    },
    authScopes: minRole('admin'),
    resolve: (_root, { project_id, id, ...query }, ctx) => ctx.services.webhooks.deliveries(project_id, id, definedArgs(query)),
  }),
}));

builder.mutationFields((t) => ({
  createWebhookSubscription: t.field({
    type: WebhookSubscriptionWithSecret,
    nullable: false,
    args: {
      project_id: t.arg.string({ required: true }),
      event: t.arg.string(),
      target: t.arg.string(),
      signing: t.arg.string({ description: '`hmac` (default: `v1` signatures with `signingSecret`) or `ed25519` (`v1a` signatures, verified with `publicKey`).' }),
      throttle: t.arg.int({ description: 'At most this many deliveries a second (1 to 10000), across nodes.' }),
    },
    authScopes: minRole('admin'),
    resolve: async (_root, { project_id, ...input }, ctx) =>
      ctx.services.webhooks.create(project_id, (await ctx.principal())!.userId, definedArgs(input)),
  }),
  updateWebhookSubscription: t.field({
    type: WebhookSubscription,
    nullable: false,
    args: {
      ...projectAndId(t.arg),
      event: t.arg.string(),
      target: t.arg.string(),
      enabled: t.arg.boolean(),
      throttle: t.arg.int({ description: 'Deliveries a second at most; null removes the limit.' }),
    },
    authScopes: minRole('admin'),
    resolve: (_root, { project_id, id, ...input }, ctx) => ctx.services.webhooks.update(project_id, id, definedArgs(input, ['throttle'])),
  }),
  enableWebhookSubscription: t.field({
    type: WebhookSubscription,
    nullable: false,
    description: 'Re-enables a disabled subscription (after a 410, failing too long, or by hand) with a clean record: events from now on are delivered.',
    args: projectAndId(t.arg),
    authScopes: minRole('admin'),
    resolve: (_root, args, ctx) => ctx.services.webhooks.enable(args.project_id, args.id),
  }),
  recoverWebhookDeliveries: t.field({
    type: WebhookRecovery,
    nullable: false,
    description: 'Sends again every delivery of the subscription that failed since `since` (one attempt each, same `webhook-id`, paced by its throttle); answers how many.',
    args: { ...projectAndId(t.arg), since: t.arg.string({ description: 'An ISO 8601 date, or milliseconds since the epoch as text.' }) },
    authScopes: minRole('admin'),
    resolve: (_root, { project_id, id, ...input }, ctx) => ctx.services.webhooks.recover(project_id, id, definedArgs(input)),
  }),
  deleteWebhookSubscription: t.field({
    type: WebhookSubscription,
    nullable: false,
    args: projectAndId(t.arg),
    authScopes: minRole('admin'),
    resolve: (_root, args, ctx) => ctx.services.webhooks.remove(args.project_id, args.id),
  }),
  rotateWebhookSubscriptionSecret: t.field({
    type: WebhookSubscriptionWithSecret,
    nullable: false,
    description: 'A new signing key; the previous one keeps signing deliveries (beside the new one) for 24 hours. `secret` (x-hook-secret) is unchanged.',
    args: projectAndId(t.arg),
    authScopes: minRole('admin'),
    resolve: (_root, args, ctx) => ctx.services.webhooks.rotateSecret(args.project_id, args.id),
  }),
  redeliverWebhook: t.field({
    type: WebhookDelivery,
    nullable: false,
    description: 'Sends a past delivery again, now, with the same `webhook-id`; the attempt joins its log.',
    args: { ...projectAndId(t.arg), delivery_id: t.arg.string({ required: true }) },
    authScopes: minRole('admin'),
    resolve: (_root, args, ctx) => ctx.services.webhooks.redeliver(args.project_id, args.id, args.delivery_id),
  }),
}));

export const routes: RestRoutes = {
  // A fixed path, matched before `/:project_id/events` (literal segments first).
  'Query.webhookEvents': { method: 'GET', path: '/webhooks/events' },
  'Mutation.enableWebhookSubscription': { method: 'POST', path: '/:project_id/subscriptions/:id/enable' },
  'Mutation.recoverWebhookDeliveries': { method: 'POST', path: '/:project_id/subscriptions/:id/recover' },
  'Query.webhookSubscriptions': { method: 'GET', path: '/:project_id/subscriptions' },
  'Query.webhookSubscription': { method: 'GET', path: '/:project_id/subscriptions/:id' },
  'Query.webhookDeliveries': { method: 'GET', path: '/:project_id/subscriptions/:id/deliveries' },
  // Legacy clients read the new subscription's `secret` (the value deliveries carry in that header,
  // never the signing key) from the x-hook-secret response header.
  'Mutation.createWebhookSubscription': { method: 'POST', path: '/:project_id/subscriptions', answerHeaders: { 'x-hook-secret': 'secret' } },
  'Mutation.updateWebhookSubscription': { method: 'PUT', path: '/:project_id/subscriptions/:id', keepsNull: ['throttle'] },
  'Mutation.deleteWebhookSubscription': { method: 'DELETE', path: '/:project_id/subscriptions/:id' },
  'Mutation.rotateWebhookSubscriptionSecret': { method: 'POST', path: '/:project_id/subscriptions/:id/rotate' },
  'Mutation.redeliverWebhook': { method: 'POST', path: '/:project_id/subscriptions/:id/deliveries/:delivery_id/redeliver' },
};
