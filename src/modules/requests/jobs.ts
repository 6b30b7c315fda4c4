import { z } from 'zod';

/** Offers waiting requests to the agents available now (after availability or capacity changes). */
export const offerWaitingJob = 'routing.offer-waiting';

export const offerWaitingData = z.object({ projectId: z.string().min(1) });
