import { z } from 'zod';

// Paging and sorting shared by the list endpoints: `page` counts from 0 (the first page),
// `direction` is 1 (ascending) or -1 (descending, the default), `limit` is the page size.

export const defaultPageSize = 40;
export const maxPageSize = 100;
// Keeps `page * limit` a sane OFFSET whatever a client sends.
const maxPage = 100_000;

export type Direction = 1 | -1;

/**
 * `zeroMeansAll`: `limit=0` asks for every match, as clients of the intents list send it (the
 * official SDK among them); elsewhere 0 is refused.
 */
export function listingInput<F extends string>(sortFields: readonly [F, ...F[]], defaultSort: F, options: { zeroMeansAll?: boolean } = {}) {
  return z.object({
    sortField: z.enum(sortFields, { message: `must be one of ${sortFields.join(', ')}` }).default(defaultSort),
    direction: z
      .union([z.literal(1), z.literal(-1)], { message: 'must be 1 (ascending) or -1 (descending)' })
      .default(-1),
    page: z.number().int().min(0, 'must be 0 (the first page) or more').max(maxPage).default(0),
    limit: z
      .number()
      .int()
      .min(options.zeroMeansAll ? 0 : 1, options.zeroMeansAll ? 'must be 0 (all) or more' : 'must be at least 1')
      .max(maxPageSize, `must be at most ${maxPageSize}`)
      .default(defaultPageSize),
  });
}

export interface Listing<F extends string> {
  sortField: F;
  direction: Direction;
  page: number;
  limit: number;
}

/** Prisma's orderBy, skip and take for a listing; the id breaks ties so pages never overlap. */
export function pageOf<F extends string>(listing: Listing<F>) {
  const order = listing.direction === 1 ? 'asc' : 'desc';
  return {
    orderBy: [{ [listing.sortField]: order }, { id: order }] as Array<Record<string, 'asc' | 'desc'>>,
    // limit 0: every match (only where listingInput allowed it).
    skip: listing.limit ? listing.page * listing.limit : undefined,
    take: listing.limit || undefined,
  };
}
