import { z } from 'zod';
import { jobType } from '../../infra/job-queue.js';

/** Offers waiting requests to the agents available now (after availability or capacity changes). */
export const offerWaitingJob = jobType('routing.offer-waiting', z.object({ projectId: z.string().min(1) }));
