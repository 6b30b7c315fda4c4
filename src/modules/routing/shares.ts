import { Prisma } from '../../generated/prisma/client.js';
import type { Tx } from '../../infra/database.js';

// Load distribution across a department's groups by percentage: each new request goes to the
// group furthest below its share of the department's recent requests, so 70/30 over ten
// requests gives exactly seven and three.

export interface Share {
  id_group: string;
  percentage: number;
}

/** How many recent requests of a department the shares are measured over. */
const window = 1000;

export function parseShares(value: unknown): Share[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (s): s is Share =>
      !!s && typeof s.id_group === 'string' && typeof s.percentage === 'number' && s.percentage > 0,
  );
}

/** Group ids, the one most owed a request first. */
export async function orderGroupsByDeficit(tx: Tx, projectId: string, departmentId: string, shares: Share[]) {
  const rows = await tx.$queryRaw<Array<{ id_group: string; n: bigint }>>`
    SELECT recent."id_group", count(*) AS n FROM (
      SELECT "id_group" FROM "Request"
      WHERE "id_project" = ${projectId} AND "departmentId" = ${departmentId}
        AND "id_group" IN (${Prisma.join(shares.map((s) => s.id_group))})
      ORDER BY "createdAt" DESC LIMIT ${window}
    ) recent GROUP BY recent."id_group"`;
  const counts = new Map(rows.map((r) => [r.id_group, Number(r.n)]));
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  const weight = shares.reduce((a, s) => a + s.percentage, 0);
  const deficit = (s: Share) => ((total + 1) * s.percentage) / weight - (counts.get(s.id_group) ?? 0);
  return shares
    .map((s, index) => ({ s, index, owed: deficit(s) }))
    .sort((a, b) => b.owed - a.owed || b.s.percentage - a.s.percentage || a.index - b.index)
    .map((x) => x.s.id_group);
}
