import type { Department } from '../../generated/prisma/client.js';
import type { Db, Tx } from '../../infra/database.js';
import type { RequestStatus } from './states.js';

// What the request services need of routing, and what a routing decision holds. Defined here, on
// the side that uses it; src/modules/routing implements it (RoutingService), so requests never
// import routing while routing builds on requests.

export type AssignmentReason = 'least_loaded' | 'bot' | 'pooled' | 'no_agent_available';

export interface Candidate {
  teammateId: string;
  userId: string;
  firstname: string;
  lastname: string;
  load: number;
}

export interface RoutingDecision {
  department: Department | null;
  groupId: string | null;
  status: typeof RequestStatus.UNSERVED | typeof RequestStatus.SERVED;
  reason: AssignmentReason;
  botId: string | null;
  agent: Candidate | null;
  /** Available agents considered (for the request snapshot). */
  candidates: Candidate[];
}

export interface RouteOptions {
  departmentId?: string | null;
  nobot?: boolean;
  /** The requester never serves their own request. */
  requesterUserId?: string | null;
}

export interface RequestRouting {
  /** Who serves a new (or re-routed) request, and why. */
  decide(tx: Tx, projectId: string, options: RouteOptions): Promise<RoutingDecision>;
  /** The department a request names, or the project's default one. */
  department(tx: Tx | Db, projectId: string, departmentId?: string | null): Promise<Department | null>;
  /** Recounts the open requests each of `userIds` serves, and records the one `assigned` was given (round-robin order). */
  syncLoads(tx: Tx, projectId: string, userIds: string[], assigned?: Assignment): Promise<void>;
}

/** An agent just given a request. */
export interface Assignment {
  userId: string;
  requestId: string;
}
