import { perContext } from '../../context.js';
import type { Department } from '../../generated/prisma/client.js';
import { batched } from './relations.js';

// A request that is gone (the DELETE answer) still shows its department, which is still there:
// loaded by its own id, with the operation's other ones, and only from the request's project.

/** Keyed `<projectId> <departmentId>`. */
export const departmentsOf = perContext((ctx) =>
  batched<Department>(async (keys) => {
    const pairs = keys.map((k) => k.split(' ') as [string, string]);
    const rows = await ctx.services.infra.database.prisma.department.findMany({
      where: { OR: pairs.map(([id_project, id]) => ({ id_project, id })) },
    });
    return new Map(rows.map((d) => [`${d.id_project} ${d.id}`, d]));
  }),
);
