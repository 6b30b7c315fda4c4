import { badInput } from '../../errors.js';
import { minRole } from '../../graphql/scopes.js';
import type { HandRoute } from '../../rest/hand-route.js';
import { errorResponseRefs } from '../../rest/openapi/shared.js';

function instant(query: URLSearchParams, field: string): Date | undefined {
  const raw = query.get(field);
  if (raw === null || raw === '') return undefined;
  const date = new Date(raw);
  if (Number.isNaN(date.getTime())) throw badInput(field, `${field}: must be an ISO-8601 date or time`);
  return date;
}

const range = (name: string, description: string) => ({ name, in: 'query', required: false, schema: { type: 'string', format: 'date-time' }, description });

// A CSV download, which SOFA cannot generate: written by hand, streamed.
export const reportRoutes: Record<string, HandRoute> = {
  'Route.conversationsCsv': {
    method: 'GET',
    path: '/:project_id/analytics/conversations.csv',
    auth: minRole('admin'),
    body: 'none',
    handle: async ({ ctx, params, query }) => {
      const from = instant(query, 'from');
      const to = instant(query, 'to');
      if (from && to && from > to) throw badInput('from', 'from: must not be after to');
      const stream = await ctx.services.reports.csv(params.project_id, { from, to });
      return {
        stream,
        headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': 'attachment; filename="conversations.csv"' },
      };
    },
    operation: {
      summary: 'Export conversations as CSV',
      description:
        'One row per conversation: id, created, first_response_seconds, resolution_seconds, agent, department, tags, rating, sla_breached. Streamed. Audited as `report.export`.',
      tags: ['Analytics'],
      parameters: [range('from', 'Conversations created at or after.'), range('to', 'Conversations created at or before.')],
      responses: { 200: { description: 'The CSV.', content: { 'text/csv': { schema: { type: 'string' } } } }, ...errorResponseRefs },
    },
  },
};
