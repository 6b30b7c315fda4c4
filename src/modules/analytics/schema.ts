import { builder } from '../../graphql/builder.js';
import type { RestRoutes } from '../../rest/route-config.js';
import { minRole } from '../../graphql/scopes.js';
import type { AgentResponse, Average, Duration, MessageCounts, StatusCounts } from './service.js';

// Every figure over the last 30 days (UTC), admin minimum. Durations in milliseconds.

const Count = builder.objectRef<{ count: number }>('AnalyticsCount').implement({
  fields: (t) => ({ count: t.exposeInt('count', { nullable: false }) }),
});

const AverageFigure = builder.objectRef<Average>('AnalyticsAverage').implement({
  description: '`average` is null when nothing was measured; `count` is how many values it averages.',
  fields: (t) => ({
    average: t.exposeFloat('average'),
    count: t.exposeInt('count', { nullable: false }),
  }),
});

const DurationFigure = builder.objectRef<Duration>('AnalyticsDuration').implement({
  description: 'Conversation length, creation to close, in milliseconds.',
  fields: (t) => ({
    average: t.exposeFloat('average'),
    median: t.exposeFloat('median'),
    count: t.exposeInt('count', { nullable: false }),
  }),
});

const StatusFigure = builder.objectRef<StatusCounts>('AnalyticsStatusCounts').implement({
  description: 'assigned: SERVED; unassigned: TEMPORARY, UNSERVED or ABANDONED; archived: CLOSED.',
  fields: (t) => ({
    assigned: t.exposeInt('assigned', { nullable: false }),
    unassigned: t.exposeInt('unassigned', { nullable: false }),
    archived: t.exposeInt('archived', { nullable: false }),
  }),
});

const MessageFigure = builder.objectRef<MessageCounts>('AnalyticsMessageCounts').implement({
  description: 'received: written by the requester; sent: by agents and bots.',
  fields: (t) => ({
    count: t.exposeInt('count', { nullable: false }),
    sent: t.exposeInt('sent', { nullable: false }),
    received: t.exposeInt('received', { nullable: false }),
  }),
});

const ByDay = builder.objectRef<{ date: string; count: number }>('AnalyticsDay').implement({
  fields: (t) => ({ date: t.exposeString('date', { nullable: false, description: 'YYYY-MM-DD' }), count: t.exposeInt('count', { nullable: false }) }),
});
const ByWeek = builder.objectRef<{ week: string; count: number }>('AnalyticsWeek').implement({
  fields: (t) => ({
    week: t.exposeString('week', { nullable: false, description: 'The Monday starting the week, YYYY-MM-DD.' }),
    count: t.exposeInt('count', { nullable: false }),
  }),
});
const ByMonth = builder.objectRef<{ month: string; count: number }>('AnalyticsMonth').implement({
  fields: (t) => ({ month: t.exposeString('month', { nullable: false, description: 'YYYY-MM' }), count: t.exposeInt('count', { nullable: false }) }),
});
const ByHour = builder.objectRef<{ hour: number; count: number }>('AnalyticsHour').implement({
  fields: (t) => ({ hour: t.exposeInt('hour', { nullable: false, description: '0 to 23, UTC' }), count: t.exposeInt('count', { nullable: false }) }),
});

const ByHourOfWeek = builder.objectRef<{ weekday: number; hour: number; count: number }>('AnalyticsHourOfWeek').implement({
  fields: (t) => ({
    weekday: t.exposeInt('weekday', { nullable: false, description: '0 (Sunday) to 6, UTC' }),
    hour: t.exposeInt('hour', { nullable: false, description: '0 to 23, UTC' }),
    count: t.exposeInt('count', { nullable: false }),
  }),
});
const ByRating = builder.objectRef<{ rating: number; count: number }>('AnalyticsRating').implement({
  fields: (t) => ({ rating: t.exposeInt('rating', { nullable: false, description: '0 to 5' }), count: t.exposeInt('count', { nullable: false }) }),
});
const AgentFirstResponse = builder.objectRef<AgentResponse>('AnalyticsAgentFirstResponse').implement({
  description: 'First response times (ms) of the conversations a teammate answered first.',
  fields: (t) => ({
    id_user: t.exposeString('id_user', { nullable: false, description: 'The teammate\'s user id.' }),
    fullname: t.exposeString('fullname'),
    average: t.exposeFloat('average'),
    median: t.exposeFloat('median'),
    count: t.exposeInt('count', { nullable: false }),
  }),
});

builder.queryFields((t) => {
  const args = { project_id: t.arg.string({ required: true }) };
  const figure = <T>(type: T, description: string) => ({ type, nullable: false as const, args, authScopes: minRole('admin'), description });
  return {
    analyticsWaitingTime: t.field({
      ...figure(AverageFigure, 'Average waiting time (ms) of the last 30 days.'),
      resolve: (_root, a, ctx) => ctx.services.analytics.waitingTime(a.project_id),
    }),
    analyticsWaitingTimeLastDay: t.field({
      ...figure(AverageFigure, 'Average waiting time (ms) of the last 24 hours.'),
      resolve: (_root, a, ctx) => ctx.services.analytics.waitingTime(a.project_id, 1),
    }),
    analyticsRequestCount: t.field({
      ...figure(Count, 'Conversations opened.'),
      resolve: (_root, a, ctx) => ctx.services.analytics.requestCount(a.project_id),
    }),
    analyticsRequestsByStatus: t.field({
      ...figure(StatusFigure, 'Conversations by status.'),
      resolve: (_root, a, ctx) => ctx.services.analytics.byStatus(a.project_id),
    }),
    analyticsRequestsByDay: t.field({
      type: [ByDay],
      nullable: false,
      args,
      authScopes: minRole('admin'),
      description: 'Conversations per day.',
      resolve: (_root, a, ctx) => ctx.services.analytics.requestsByDay(a.project_id),
    }),
    analyticsRequestsByWeek: t.field({
      type: [ByWeek],
      nullable: false,
      args,
      authScopes: minRole('admin'),
      description: 'Conversations per week.',
      resolve: (_root, a, ctx) => ctx.services.analytics.requestsByWeek(a.project_id),
    }),
    analyticsRequestsByMonth: t.field({
      type: [ByMonth],
      nullable: false,
      args,
      authScopes: minRole('admin'),
      description: 'Conversations per month.',
      resolve: (_root, a, ctx) => ctx.services.analytics.requestsByMonth(a.project_id),
    }),
    analyticsRequestsByHour: t.field({
      type: [ByHour],
      nullable: false,
      args,
      authScopes: minRole('admin'),
      description: 'Conversations by hour of the day they started.',
      resolve: (_root, a, ctx) => ctx.services.analytics.requestsByHour(a.project_id),
    }),
    analyticsRequestDuration: t.field({
      ...figure(DurationFigure, 'Conversation length of the conversations closed.'),
      resolve: (_root, a, ctx) => ctx.services.analytics.duration(a.project_id),
    }),
    analyticsSatisfaction: t.field({
      ...figure(AverageFigure, 'Average customer rating (0 to 5).'),
      resolve: (_root, a, ctx) => ctx.services.analytics.satisfaction(a.project_id),
    }),
    analyticsBotRequestCount: t.field({
      ...figure(Count, 'Conversations a bot took part in.'),
      resolve: (_root, a, ctx) => ctx.services.analytics.botRequestCount(a.project_id),
    }),
    analyticsMessageCount: t.field({
      ...figure(MessageFigure, 'Messages sent and received.'),
      resolve: (_root, a, ctx) => ctx.services.analytics.messageCount(a.project_id),
    }),
    analyticsRequestsByHourOfWeek: t.field({
      type: [ByHourOfWeek],
      nullable: false,
      args,
      authScopes: minRole('admin'),
      description: 'Conversations by the hour of the week they started (168 entries): a heat map.',
      resolve: (_root, a, ctx) => ctx.services.analytics.requestsByHourOfWeek(a.project_id),
    }),
    analyticsSatisfactionDistribution: t.field({
      type: [ByRating],
      nullable: false,
      args,
      authScopes: minRole('admin'),
      description: 'How many rated conversations got each rating, 0 to 5 (CSAT).',
      resolve: (_root, a, ctx) => ctx.services.analytics.satisfactionDistribution(a.project_id),
    }),
    analyticsFirstResponseByAgent: t.field({
      type: [AgentFirstResponse],
      nullable: false,
      args,
      authScopes: minRole('admin'),
      description: 'First response time per agent: average and median waiting time (ms) of the conversations each teammate answered first.',
      resolve: (_root, a, ctx) => ctx.services.analytics.firstResponseByAgent(a.project_id),
    }),
    analyticsMessagesByDay: t.field({
      type: [ByDay],
      nullable: false,
      args,
      authScopes: minRole('admin'),
      description: 'Messages per day.',
      resolve: (_root, a, ctx) => ctx.services.analytics.messagesByDay(a.project_id),
    }),
  };
});

export const routes: RestRoutes = {
  'Query.analyticsWaitingTime': { method: 'GET', path: '/:project_id/analytics/requests/waiting' },
  'Query.analyticsWaitingTimeLastDay': { method: 'GET', path: '/:project_id/analytics/requests/waiting/day/last' },
  'Query.analyticsRequestCount': { method: 'GET', path: '/:project_id/analytics/requests/count' },
  'Query.analyticsRequestsByStatus': { method: 'GET', path: '/:project_id/analytics/requests/aggregate/status' },
  'Query.analyticsRequestsByDay': { method: 'GET', path: '/:project_id/analytics/requests/aggregate/day' },
  'Query.analyticsRequestsByWeek': { method: 'GET', path: '/:project_id/analytics/requests/aggregate/week' },
  'Query.analyticsRequestsByMonth': { method: 'GET', path: '/:project_id/analytics/requests/aggregate/month' },
  'Query.analyticsRequestsByHour': { method: 'GET', path: '/:project_id/analytics/requests/aggregate/hours' },
  'Query.analyticsRequestDuration': { method: 'GET', path: '/:project_id/analytics/requests/duration' },
  'Query.analyticsSatisfaction': { method: 'GET', path: '/:project_id/analytics/requests/satisfaction' },
  'Query.analyticsBotRequestCount': { method: 'GET', path: '/:project_id/analytics/requests/hasBot/count' },
  'Query.analyticsMessageCount': { method: 'GET', path: '/:project_id/analytics/messages/count' },
  'Query.analyticsMessagesByDay': { method: 'GET', path: '/:project_id/analytics/messages/aggregate/day' },
  'Query.analyticsRequestsByHourOfWeek': { method: 'GET', path: '/:project_id/analytics/requests/aggregate/hourOfWeek' },
  'Query.analyticsSatisfactionDistribution': { method: 'GET', path: '/:project_id/analytics/requests/satisfaction/distribution' },
  'Query.analyticsFirstResponseByAgent': { method: 'GET', path: '/:project_id/analytics/requests/firstResponse/agents' },
};
