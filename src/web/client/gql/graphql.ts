/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
export type ConsoleAuditQueryVariables = Exact<{
  project: string;
  action?: Array<string> | string | null | undefined;
  actor?: string | null | undefined;
  actorKind?: string | null | undefined;
  from?: string | null | undefined;
  to?: string | null | undefined;
  page?: number | null | undefined;
  limit?: number | null | undefined;
}>;


export type ConsoleAuditQuery = { auditCount: number | null, audit: Array<{ _id: string, action: string, target: string, targetType: string, address: string | null, before: any, after: any, details: any, createdAt: string, actor: { kind: string, id: string | null, name: string | null } }> | null };

export type ConsoleMergeRequestsMutationVariables = Exact<{
  project: string;
  request: string;
  from: Array<string> | string;
}>;


export type ConsoleMergeRequestsMutation = { mergeRequests: { request_id: string } };

export type ConsoleMergedTargetQueryVariables = Exact<{
  project: string;
  request: string;
}>;


export type ConsoleMergedTargetQuery = { request: { request_id: string, ticket_id: string, first_text: string | null, lead: { fullname: string | null } | null } | null };

export type ConsoleReportConversationsQueryVariables = Exact<{
  project: string;
  status?: string | null | undefined;
  start?: string | null | undefined;
  end?: string | null | undefined;
  assignee?: string | null | undefined;
  dept?: string | null | undefined;
  tags?: string | null | undefined;
  rating?: number | null | undefined;
  active?: string | null | undefined;
  page?: number | null | undefined;
}>;


export type ConsoleReportConversationsQuery = { requests: { count: number, perPage: number, requests: Array<{ request_id: string, ticket_id: string, status: number, first_text: string | null, createdAt: string, merged_into: string | null, lead: { fullname: string | null, email: string | null } | null, department: { name: string } | null, agents: Array<{ id_user: { fullName: string | null, email: string | null } | null }> }> } | null };

export type ConsoleScheduledMessagesQueryVariables = Exact<{
  project: string;
  request: string;
}>;


export type ConsoleScheduledMessagesQuery = { scheduledMessages: Array<{ _id: string, text: string, scheduled_at: string, status: string, reason: string | null }> | null };

export type ConsoleScheduleMessageMutationVariables = Exact<{
  project: string;
  request: string;
  text: string;
  at: string;
}>;


export type ConsoleScheduleMessageMutation = { scheduleMessage: { _id: string } };

export type ConsoleEditScheduledMutationVariables = Exact<{
  project: string;
  request: string;
  id: string;
  text?: string | null | undefined;
  at?: string | null | undefined;
}>;


export type ConsoleEditScheduledMutation = { updateScheduledMessage: { _id: string } };

export type ConsoleCancelScheduledMutationVariables = Exact<{
  project: string;
  request: string;
  id: string;
}>;


export type ConsoleCancelScheduledMutation = { cancelScheduledMessage: { _id: string } };

export type ConsoleSuggestionsQueryVariables = Exact<{
  project: string;
  request: string;
}>;


export type ConsoleSuggestionsQuery = { requestSuggestions: { question: string, language: string | null, sentiment: string, replies: Array<{ text: string, source: string, ref: string | null, score: number }>, tags: Array<{ tag: string, score: number }> } | null };

export type ConsoleSummaryQueryVariables = Exact<{
  project: string;
  request: string;
}>;


export type ConsoleSummaryQuery = { requestSummary: { summary: string, method: string, by: string | null, createdAt: string } | null };

export type ConsoleSummarizeMutationVariables = Exact<{
  project: string;
  request: string;
}>;


export type ConsoleSummarizeMutation = { summarizeRequest: { summary: string, method: string, by: string | null, createdAt: string } };

export type ConsoleKbProposalsQueryVariables = Exact<{
  project: string;
}>;


export type ConsoleKbProposalsQuery = { kbProposals: Array<{ _id: string, question: string, answer: string, count: number, examples: Array<string>, namespace: string }> | null };

export type ConsoleAcceptKbProposalMutationVariables = Exact<{
  project: string;
  id: string;
  question?: string | null | undefined;
  answer?: string | null | undefined;
}>;


export type ConsoleAcceptKbProposalMutation = { acceptKbProposal: { _id: string, status: string, content_id: string | null } };

export type ConsoleUpdateKbProposalMutationVariables = Exact<{
  project: string;
  id: string;
  question?: string | null | undefined;
  answer?: string | null | undefined;
}>;


export type ConsoleUpdateKbProposalMutation = { updateKbProposal: { _id: string, question: string, answer: string } };

export type ConsoleDismissKbProposalMutationVariables = Exact<{
  project: string;
  id: string;
}>;


export type ConsoleDismissKbProposalMutation = { dismissKbProposal: { _id: string, status: string } };

export type ConsoleKbTestsQueryVariables = Exact<{
  project: string;
  namespace?: string | null | undefined;
}>;


export type ConsoleKbTestsQuery = { kbTests: { namespace: string, tests: Array<{ id: string, question: string, expected: string }>, last_run: { id: string, trigger: string, total: number, passed: number, pass_rate: number, createdAt: string, failures: Array<{ question: string, expected: string, found: { id: string, name: string } | null }> } | null } | null };

export type ConsoleSaveKbTestsMutationVariables = Exact<{
  project: string;
  namespace?: string | null | undefined;
  tests?: any;
}>;


export type ConsoleSaveKbTestsMutation = { saveKbTests: { namespace: string } };

export type ConsoleRunKbTestsMutationVariables = Exact<{
  project: string;
  namespace?: string | null | undefined;
}>;


export type ConsoleRunKbTestsMutation = { runKbTests: { id: string } };

export type ManageTeamQueryVariables = Exact<{
  project: string;
}>;


export type ManageTeamQuery = { teammates: Array<{ _id: string, role: string, user_available: boolean | null, id_user: { _id: string, fullName: string | null, email: string | null } | null }> | null };

export type ManageInvitationsQueryVariables = Exact<{
  project: string;
}>;


export type ManageInvitationsQuery = { invitations: Array<{ _id: string, email: string | null, role: string | null, createdAt: string }> | null };

export type ManageInviteMutationVariables = Exact<{
  project: string;
  email: string;
  role: string;
}>;


export type ManageInviteMutation = { inviteTeammate: { success: boolean, pending: boolean } };

export type ManageDepartmentsQueryVariables = Exact<{
  project: string;
}>;


export type ManageDepartmentsQuery = { departments: Array<{ _id: string, name: string, default: boolean, routing: string | null, id_bot: string | null, id_group: string | null, status: number }> | null, groups: Array<{ _id: string, name: string, members: Array<string> }> | null, bots: Array<{ _id: string, name: string }> | null };

export type ManageCreateDepartmentMutationVariables = Exact<{
  project: string;
  name: string;
  routing?: string | null | undefined;
  bot?: string | null | undefined;
}>;


export type ManageCreateDepartmentMutation = { createDepartment: { _id: string } };

export type ManageSetDepartmentBotMutationVariables = Exact<{
  project: string;
  id: string;
  bot?: string | null | undefined;
}>;


export type ManageSetDepartmentBotMutation = { updateDepartment: { _id: string, id_bot: string | null } };

export type ManageCreateGroupMutationVariables = Exact<{
  project: string;
  name: string;
  members?: Array<string> | string | null | undefined;
}>;


export type ManageCreateGroupMutation = { createGroup: { _id: string } };

export type ManageBotsQueryVariables = Exact<{
  project: string;
}>;


export type ManageBotsQuery = { bots: Array<{ _id: string, name: string, type: string, kb_namespace: string | null }> | null, intents: Array<{ _id: string, id_faq_kb: string, intent_display_name: string, question: string | null, answer: string | null }> | null };

export type ManageCreateBotMutationVariables = Exact<{
  project: string;
  name: string;
  template?: string | null | undefined;
}>;


export type ManageCreateBotMutation = { createBot: { _id: string } };

export type ManageCreateIntentMutationVariables = Exact<{
  project: string;
  bot: string;
  question: string;
  answer: string;
}>;


export type ManageCreateIntentMutation = { createIntent: { _id: string } };

export type ManageKbsQueryVariables = Exact<{
  project: string;
}>;


export type ManageKbsQuery = { kbNamespaces: Array<{ _id: string, name: string, default: boolean, preview_settings: { model: string, top_k: number, temperature: number, max_tokens: number } }> | null };

export type ManageKbContentsQueryVariables = Exact<{
  project: string;
  namespace: string;
}>;


export type ManageKbContentsQuery = { kbContents: { count: number, kbs: Array<{ _id: string, name: string, type: string, source: string | null, status: number, error: string | null, updatedAt: string }> } | null };

export type ManageKbIndexingSubscriptionVariables = Exact<{
  project: string;
  namespace: string;
  after?: number | null | undefined;
}>;


export type ManageKbIndexingSubscription = { kbIndexing: { seq: number, content_id: string, status: number | null, error: string | null } };

export type ManageCreateKbMutationVariables = Exact<{
  project: string;
  name: string;
}>;


export type ManageCreateKbMutation = { createKbNamespace: { _id: string } };

export type ManageAddKbContentMutationVariables = Exact<{
  project: string;
  namespace: string;
  name: string;
  type: string;
  source?: string | null | undefined;
  content?: string | null | undefined;
}>;


export type ManageAddKbContentMutation = { createKbContent: { value: { _id: string, status: number } } };

export type ManageReadSitemapMutationVariables = Exact<{
  project: string;
  sitemap: string;
}>;


export type ManageReadSitemapMutation = { readKbSitemap: { sites: Array<string>, errors: Array<{ url: string, message: string }> } };

export type ManageAddKbPagesMutationVariables = Exact<{
  project: string;
  namespace: string;
  list: Array<string> | string;
}>;


export type ManageAddKbPagesMutation = { createKbContents: Array<{ _id: string }> };

export type ManageDeleteKbContentMutationVariables = Exact<{
  project: string;
  id: string;
}>;


export type ManageDeleteKbContentMutation = { deleteKbContent: { _id: string } };

export type ManageWebhooksQueryVariables = Exact<{
  project: string;
}>;


export type ManageWebhooksQuery = { webhookSubscriptions: Array<{ _id: string, event: string, target: string, enabled: boolean, disabledReason: string | null, disabledAt: string | null }> | null };

export type ManageWebhookDeliveriesQueryVariables = Exact<{
  project: string;
  id: string;
}>;


export type ManageWebhookDeliveriesQuery = { webhookDeliveries: { count: number, deliveries: Array<{ _id: string, event: string, status: string, createdAt: string, nextAttemptAt: string | null, attempts: Array<{ at: string, attempt: number | null, error: string | null, reason: string | null, redelivery: boolean, statusCode: number | null, durationMs: number }> }> } | null };

export type ManageCreateWebhookMutationVariables = Exact<{
  project: string;
  event: string;
  target: string;
}>;


export type ManageCreateWebhookMutation = { createWebhookSubscription: { _id: string, signingSecret: string | null } };

export type ManageRedeliverMutationVariables = Exact<{
  project: string;
  id: string;
  delivery: string;
}>;


export type ManageRedeliverMutation = { redeliverWebhook: { _id: string, status: string, attempts: Array<{ at: string, statusCode: number | null, error: string | null, redelivery: boolean }> } };

export type ManageRemoveTeammateMutationVariables = Exact<{
  project: string;
  id: string;
}>;


export type ManageRemoveTeammateMutation = { removeTeammate: { _id: string } };

export type ManageChangeRoleMutationVariables = Exact<{
  project: string;
  id: string;
  role: string;
}>;


export type ManageChangeRoleMutation = { updateTeammate: { _id: string, role: string } };

export type ManageRevokeInvitationMutationVariables = Exact<{
  project: string;
  id: string;
}>;


export type ManageRevokeInvitationMutation = { revokeInvitation: { _id: string } };

export type ManageCreateCannedMutationVariables = Exact<{
  project: string;
  title: string;
  text: string;
}>;


export type ManageCreateCannedMutation = { createCannedResponse: { _id: string } };

export type ManageEnableWebhookMutationVariables = Exact<{
  project: string;
  id: string;
}>;


export type ManageEnableWebhookMutation = { enableWebhookSubscription: { _id: string, enabled: boolean } };

export type ConsoleEventPayloadsSubscriptionVariables = Exact<{
  project: string;
  after?: number | null | undefined;
}>;


export type ConsoleEventPayloadsSubscription = { projectEvents: { seq: number, name: string, subject: string, payload: any } };

export type ConsoleSigninMutationVariables = Exact<{
  email: string;
  password: string;
}>;


export type ConsoleSigninMutation = { signin: { token: string | null, user: { _id: string, email: string | null, fullName: string | null } } };

export type ConsoleSignupMutationVariables = Exact<{
  email: string;
  password: string;
  firstname?: string | null | undefined;
  lastname?: string | null | undefined;
}>;


export type ConsoleSignupMutation = { signup: { token: string | null, user: { _id: string, email: string | null, fullName: string | null } } };

export type ConsoleProjectsQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleProjectsQuery = { projects: Array<{ _id: string, role: string | null, user_available: boolean | null, id_project: { _id: string, name: string } | null }> | null };

export type ConsoleCreateProjectMutationVariables = Exact<{
  name: string;
}>;


export type ConsoleCreateProjectMutation = { createProject: { _id: string, name: string } };

export type ConsoleInboxQueryVariables = Exact<{
  project: string;
  status?: string | null | undefined;
  assignee?: string | null | undefined;
  sortField?: string | null | undefined;
  direction?: number | null | undefined;
  dept?: string | null | undefined;
  tags?: string | null | undefined;
  channel?: string | null | undefined;
  priority?: Array<string> | string | null | undefined;
}>;


export type ConsoleInboxQuery = { requests: { count: number, requests: Array<{ _id: string, request_id: string, ticket_id: string, status: number, priority: string, first_text: string | null, createdAt: string, updatedAt: string, hasBot: boolean, participatingAgents: Array<string>, tags: any, unread: number | null, lead: { _id: string, fullname: string | null, email: string | null } | null, sla: { firstResponseDueAt: string | null, nextResponseDueAt: string | null, resolutionDueAt: string | null, met: Array<string>, breached: Array<string> } | null }> } | null };

export type ConsoleInboxCountsQueryVariables = Exact<{
  project: string;
}>;


export type ConsoleInboxCountsQuery = { mine: { count: number, requests: Array<{ request_id: string, unread: number | null }> } | null, unassigned: { count: number, requests: Array<{ request_id: string, unread: number | null }> } | null, open: { count: number, requests: Array<{ request_id: string, unread: number | null }> } | null, closed: { count: number, requests: Array<{ request_id: string, unread: number | null }> } | null };

export type ConsoleProjectEventsSubscriptionVariables = Exact<{
  project: string;
  after?: number | null | undefined;
}>;


export type ConsoleProjectEventsSubscription = { projectEvents: { seq: number, name: string, subject: string } };

export type ConsoleMyInvitationsQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleMyInvitationsQuery = { myInvitations: Array<{ _id: string, id_project: string | null, project_name: string | null, role: string | null, createdAt: string }> | null };

export type ConsoleAcceptInvitationMutationVariables = Exact<{
  id: string;
}>;


export type ConsoleAcceptInvitationMutation = { acceptInvitation: { _id: string, id_project: string, role: string } };

export type ConsoleDeclineInvitationMutationVariables = Exact<{
  id: string;
}>;


export type ConsoleDeclineInvitationMutation = { declineInvitation: { _id: string } };

export type ConsoleSignupWithInvitationMutationVariables = Exact<{
  id: string;
  token: string;
  password: string;
  firstname?: string | null | undefined;
  lastname?: string | null | undefined;
}>;


export type ConsoleSignupWithInvitationMutation = { signupWithInvitation: { token: string | null, user: { _id: string, email: string | null, fullName: string | null } } };

export type ConsoleVerifyEmailMutationVariables = Exact<{
  token: string;
}>;


export type ConsoleVerifyEmailMutation = { verifyEmail: { token: string | null, user: { _id: string, email: string | null, fullName: string | null, emailverified: boolean | null } } };

export type ConsoleRequestPasswordResetMutationVariables = Exact<{
  email: string;
}>;


export type ConsoleRequestPasswordResetMutation = { requestPasswordReset: { success: boolean } };

export type ConsoleResetPasswordMutationVariables = Exact<{
  token: string;
  password: string;
}>;


export type ConsoleResetPasswordMutation = { resetPassword: { token: string | null, user: { _id: string, email: string | null, fullName: string | null } } };

export type ConsoleRequestEventsSubscriptionVariables = Exact<{
  project: string;
  after?: number | null | undefined;
}>;


export type ConsoleRequestEventsSubscription = { projectRequests: { seq: number, name: string, request_id: string | null } };

export type ConsoleConversationQueryVariables = Exact<{
  project: string;
  request: string;
}>;


export type ConsoleConversationQuery = { request: { _id: string, request_id: string, ticket_id: string, status: number, priority: string, first_text: string | null, participatingAgents: Array<string>, participatingBots: Array<string>, hasBot: boolean, tags: any, merged_into: string | null, rating: number | null, rating_message: string | null, closed_at: string | null, createdAt: string, sourcePage: string | null, sla: { firstResponseDueAt: string | null, nextResponseDueAt: string | null, resolutionDueAt: string | null, met: Array<string>, breached: Array<string>, policy: { name: string | null } | null } | null, agents: Array<{ _id: string, id_user: { _id: string, fullName: string | null, email: string | null } | null }>, department: { _id: string, name: string } | null, lead: { _id: string, fullname: string | null, email: string | null } | null, notes: Array<{ _id: string, text: string | null, createdAt: string }> } | null, messages: Array<{ _id: string, sender: string, senderFullname: string | null, text: string | null, type: string, metadata: any, attributes: any, createdAt: string, status: number, receipts: any, hidden: boolean, sentByBot: boolean }> | null, requestTimeline: Array<{ seq: number, name: string, at: string, text: string }> | null };

export type ConsoleMessageEventsSubscriptionVariables = Exact<{
  project: string;
  request: string;
  after?: number | null | undefined;
}>;


export type ConsoleMessageEventsSubscription = { requestMessages: { seq: number, message: { _id: string, sender: string, senderFullname: string | null, text: string | null, type: string, metadata: any, attributes: any, createdAt: string, status: number, receipts: any, hidden: boolean, sentByBot: boolean } | null } };

export type ConsoleReplyMutationVariables = Exact<{
  project: string;
  request: string;
  text: string;
  attributes?: any;
  type?: string | null | undefined;
  metadata?: any;
}>;


export type ConsoleReplyMutation = { sendMessage: { _id: string, sender: string, senderFullname: string | null, text: string | null, type: string, metadata: any, attributes: any, createdAt: string, status: number, receipts: any, hidden: boolean, sentByBot: boolean } };

export type ConsoleTakeMutationVariables = Exact<{
  project: string;
  request: string;
}>;


export type ConsoleTakeMutation = { takeRequest: { request_id: string, status: number, participatingAgents: Array<string> } };

export type ConsoleCloseMutationVariables = Exact<{
  project: string;
  request: string;
}>;


export type ConsoleCloseMutation = { closeRequest: { request_id: string, status: number } };

export type ConsoleReopenMutationVariables = Exact<{
  project: string;
  request: string;
}>;


export type ConsoleReopenMutation = { reopenRequest: { request_id: string, status: number } };

export type ConsoleAddNoteMutationVariables = Exact<{
  project: string;
  request: string;
  text: string;
}>;


export type ConsoleAddNoteMutation = { addRequestNote: { request_id: string, notes: Array<{ _id: string, text: string | null, createdAt: string }> } };

export type ConsoleRemoveTagMutationVariables = Exact<{
  project: string;
  request: string;
  tag: string;
}>;


export type ConsoleRemoveTagMutation = { removeRequestTag: { request_id: string, tags: any } };

export type ConsoleAddTagMutationVariables = Exact<{
  project: string;
  request: string;
  tag: any;
}>;


export type ConsoleAddTagMutation = { addRequestTags: { request_id: string, tags: any } };

export type ConsoleCannedQueryVariables = Exact<{
  project: string;
}>;


export type ConsoleCannedQuery = { cannedResponses: Array<{ _id: string, title: string, text: string }> | null };

export type ConsoleRenderCannedQueryVariables = Exact<{
  project: string;
  id: string;
  request: string;
}>;


export type ConsoleRenderCannedQuery = { renderCannedResponse: { text: string } | null };

export type ConsoleTeamQueryVariables = Exact<{
  project: string;
}>;


export type ConsoleTeamQuery = { teammates: Array<{ _id: string, role: string, user_available: boolean | null, presence: { status: string }, id_user: { _id: string, fullName: string | null, email: string | null } | null }> | null };

export type ConsolePresenceSubscriptionVariables = Exact<{
  project: string;
  after?: number | null | undefined;
}>;


export type ConsolePresenceSubscription = { teammatePresence: { seq: number, status: string, teammate: { _id: string, user_available: boolean | null } | null } };

export type ConsoleSetAvailableMutationVariables = Exact<{
  project: string;
  available: boolean;
}>;


export type ConsoleSetAvailableMutation = { updateMyTeammate: { _id: string, user_available: boolean | null } };

export type ConsoleAssignTargetsQueryVariables = Exact<{
  project: string;
}>;


export type ConsoleAssignTargetsQuery = { departments: Array<{ _id: string, name: string, id_bot: string | null }> | null, teammates: Array<{ _id: string, role: string, id_user: { _id: string, fullName: string | null, email: string | null } | null }> | null };

export type ConsoleRouteMutationVariables = Exact<{
  project: string;
  request: string;
  department: string;
}>;


export type ConsoleRouteMutation = { routeRequest: { request_id: string, status: number } };

export type ConsoleAssignMutationVariables = Exact<{
  project: string;
  request: string;
  participants: Array<string> | string;
}>;


export type ConsoleAssignMutation = { setRequestParticipants: { request_id: string, status: number, participatingAgents: Array<string> } };

export type ConsoleReportsQueryVariables = Exact<{
  project: string;
}>;


export type ConsoleReportsQuery = { analyticsRequestCount: { count: number } | null, analyticsBotRequestCount: { count: number } | null, analyticsRequestsByDay: Array<{ date: string, count: number }> | null, analyticsMessagesByDay: Array<{ date: string, count: number }> | null, analyticsRequestsByHourOfWeek: Array<{ weekday: number, hour: number, count: number }> | null, analyticsWaitingTime: { average: number | null, count: number } | null, analyticsRequestDuration: { average: number | null, median: number | null, count: number } | null, analyticsSatisfaction: { average: number | null, count: number } | null, analyticsSatisfactionDistribution: Array<{ rating: number, count: number }> | null, analyticsFirstResponseByAgent: Array<{ id_user: string, fullname: string | null, average: number | null, median: number | null, count: number }> | null };

export type ConsoleMarkSeenMutationVariables = Exact<{
  project: string;
  request: string;
}>;


export type ConsoleMarkSeenMutation = { markRequestSeen: { request_id: string, unread: number | null } };

export type ConsoleContactQueryVariables = Exact<{
  project: string;
  request: string;
}>;


export type ConsoleContactQuery = { request: { request_id: string, sourcePage: string | null, userAgent: string | null, location: any, device: string | null, browser: { name: string, version: string | null } | null, os: { name: string, version: string | null } | null, lead: { _id: string, fullname: string | null, email: string | null, phone: string | null, company: string | null, attributes: any } | null } | null };

export type ConsoleLeadConversationsQueryVariables = Exact<{
  project: string;
  lead: string;
}>;


export type ConsoleLeadConversationsQuery = { requests: { count: number, requests: Array<{ request_id: string, ticket_id: string, first_text: string | null, status: number, createdAt: string, merged_into: string | null }> } | null };

export type ConsoleUpdateLeadMutationVariables = Exact<{
  project: string;
  id: string;
  fullname?: string | null | undefined;
  email?: string | null | undefined;
  phone?: string | null | undefined;
}>;


export type ConsoleUpdateLeadMutation = { updateLead: { _id: string, fullname: string | null, email: string | null, phone: string | null } };

export type ConsoleLeadExportQueryVariables = Exact<{
  project: string;
  id: string;
}>;


export type ConsoleLeadExportQuery = { leadExport: any };

export type ConsoleEraseLeadMutationVariables = Exact<{
  project: string;
  id: string;
}>;


export type ConsoleEraseLeadMutation = { deleteLead: { _id: string, fullname: string | null, email: string | null } };

export type ConsoleProjectRetentionQueryVariables = Exact<{
  project: string;
}>;


export type ConsoleProjectRetentionQuery = { project: { _id: string, retention_days: number | null } | null };

export type ConsoleUpdateRetentionMutationVariables = Exact<{
  project: string;
  days: number;
}>;


export type ConsoleUpdateRetentionMutation = { updateProject: { _id: string, retention_days: number | null } };

export type ConsoleSearchQueryVariables = Exact<{
  project: string;
  q: string;
}>;


export type ConsoleSearchQuery = { search: { requests: Array<{ request_id: string, ticket_id: string, first_text: string | null, lead: { fullname: string | null, email: string | null } | null }>, messages: Array<{ _id: string, text: string | null, recipient: string, senderFullname: string | null, createdAt: string }>, leads: Array<{ _id: string, fullname: string | null, email: string | null }> } | null };

export type ConsoleFilterTargetsQueryVariables = Exact<{
  project: string;
}>;


export type ConsoleFilterTargetsQuery = { departments: Array<{ _id: string, name: string }> | null, teammates: Array<{ _id: string, role: string, id_user: { _id: string, fullName: string | null, email: string | null } | null }> | null };

export type ConsoleSignOutMutationVariables = Exact<{ [key: string]: never; }>;


export type ConsoleSignOutMutation = { signOut: { success: boolean } };

export type ConsoleSetPriorityMutationVariables = Exact<{
  project: string;
  request: string;
  priority: string;
}>;


export type ConsoleSetPriorityMutation = { updateRequest: { _id: string, priority: string } };

export type ConsoleSlaPoliciesQueryVariables = Exact<{
  project: string;
}>;


export type ConsoleSlaPoliciesQuery = { slaPolicies: Array<{ _id: string, name: string, departments: Array<string>, priorities: Array<string>, first_response_seconds: number | null, next_response_seconds: number | null, resolution_seconds: number | null }> | null, departments: Array<{ _id: string, name: string }> | null };

export type ConsoleCreateSlaPolicyMutationVariables = Exact<{
  project: string;
  name?: string | null | undefined;
  departments?: Array<string> | string | null | undefined;
  priorities?: Array<string> | string | null | undefined;
  first?: any;
  next?: any;
  resolution?: any;
}>;


export type ConsoleCreateSlaPolicyMutation = { createSlaPolicy: { _id: string } };

export type ConsoleUpdateSlaPolicyMutationVariables = Exact<{
  project: string;
  id: string;
  name?: string | null | undefined;
  departments?: Array<string> | string | null | undefined;
  priorities?: Array<string> | string | null | undefined;
  first?: any;
  next?: any;
  resolution?: any;
}>;


export type ConsoleUpdateSlaPolicyMutation = { updateSlaPolicy: { _id: string } };

export type ConsoleDeleteSlaPolicyMutationVariables = Exact<{
  project: string;
  id: string;
}>;


export type ConsoleDeleteSlaPolicyMutation = { deleteSlaPolicy: { _id: string } };

export type ConsoleSlaReportQueryVariables = Exact<{
  project: string;
  from?: string | null | undefined;
  to?: string | null | undefined;
}>;


export type ConsoleSlaReportQuery = { analyticsSla: { total: number, byTarget: Array<{ target: string, breaches: number }>, byDepartment: Array<{ department_id: string | null, name: string | null, breaches: number }>, byAgent: Array<{ id_user: string | null, fullname: string | null, breaches: number }>, byWeek: Array<{ week: string, breaches: number }> } | null };

export type FileLimitsQueryVariables = Exact<{ [key: string]: never; }>;


export type FileLimitsQuery = { fileLimits: { maxBytes: number, allowedTypes: Array<string> } | null };

export type KbAnswerStreamSubscriptionVariables = Exact<{
  project: string;
  namespace: string;
  question: string;
  topK?: number | null | undefined;
  temperature?: number | null | undefined;
}>;


export type KbAnswerStreamSubscription = { kbAnswerStream: { delta: string | null, done: boolean, result: { success: boolean, answer: string, id: string | null, ids: Array<string>, sources: Array<string>, error_message: string | null } | null } };

export type KbAnswerDraftsSubscriptionVariables = Exact<{
  project: string;
  request: string;
}>;


export type KbAnswerDraftsSubscription = { kbAnswerDrafts: { draft_id: string, sender: string, text: string, done: boolean } };

export type KbFeedbackMutationVariables = Exact<{
  project: string;
  namespace?: string | null | undefined;
  question: string;
  id: string;
  helpful: boolean;
}>;


export type KbFeedbackMutation = { kbFeedback: { __typename: 'KbFeedbackResult' } };

export type KbRateAnswerMutationVariables = Exact<{
  project: string;
  request: string;
  message: string;
  helpful: boolean;
}>;


export type KbRateAnswerMutation = { kbRateAnswer: { __typename: 'KbFeedbackEntry' } };

export type AcknowledgeMessageMutationVariables = Exact<{
  project: string;
  request: string;
  message: string;
  status: number;
}>;


export type AcknowledgeMessageMutation = { acknowledgeMessage: { _id: string, status: number } };

export type SendTypingMutationVariables = Exact<{
  project: string;
  request: string;
  typing: boolean;
}>;


export type SendTypingMutation = { sendTyping: { at: string } };

export type TypingEventsSubscriptionVariables = Exact<{
  project: string;
  request: string;
}>;


export type TypingEventsSubscription = { typing: { user_id: string, fullname: string | null, typing: boolean, at: string } };

export type WidgetSigninMutationVariables = Exact<{
  project: string;
  name?: string | null | undefined;
}>;


export type WidgetSigninMutation = { signinAnonymously: { token: string | null, user: { _id: string, fullName: string | null, email: string | null } } };

export type WidgetSettingsQueryVariables = Exact<{
  project: string;
}>;


export type WidgetSettingsQuery = { widgetSettings: { name: string | null, isopen: boolean | null, available_agents: number | null } | null };

export type WidgetMessagesQueryVariables = Exact<{
  project: string;
  request: string;
}>;


export type WidgetMessagesQuery = { messages: Array<{ _id: string, sender: string, senderFullname: string | null, text: string | null, type: string, metadata: any, attributes: any, createdAt: string, status: number, receipts: any, hidden: boolean, sentByBot: boolean }> | null };

export type WidgetSendMutationVariables = Exact<{
  project: string;
  request: string;
  text: string;
  attributes?: any;
  sourcePage?: string | null | undefined;
  userAgent?: string | null | undefined;
  type?: string | null | undefined;
  metadata?: any;
}>;


export type WidgetSendMutation = { sendMessage: { _id: string, sender: string, senderFullname: string | null, text: string | null, type: string, metadata: any, attributes: any, createdAt: string, status: number, receipts: any, hidden: boolean, sentByBot: boolean } };

export type WidgetMessageEventsSubscriptionVariables = Exact<{
  project: string;
  request: string;
  after?: number | null | undefined;
}>;


export type WidgetMessageEventsSubscription = { requestMessages: { seq: number, name: string, message: { _id: string, sender: string, senderFullname: string | null, text: string | null, type: string, metadata: any, attributes: any, createdAt: string, status: number, receipts: any, hidden: boolean, sentByBot: boolean } | null } };

export type WidgetRequestStatusQueryVariables = Exact<{
  project: string;
  request: string;
}>;


export type WidgetRequestStatusQuery = { request: { request_id: string, status: number, merged_into: string | null } | null };

export type WidgetRateMutationVariables = Exact<{
  project: string;
  request: string;
  rate: number;
  message?: string | null | undefined;
}>;


export type WidgetRateMutation = { rateRequest: { request_id: string, rating: number | null } };

export class TypedDocumentString<TResult, TVariables>
  extends String
  implements DocumentTypeDecoration<TResult, TVariables>
{
  __apiType?: NonNullable<DocumentTypeDecoration<TResult, TVariables>['__apiType']>;
  private value: string;
  public __meta__?: Record<string, any> | undefined;

  constructor(value: string, __meta__?: Record<string, any> | undefined) {
    super(value);
    this.value = value;
    this.__meta__ = __meta__;
  }

  override toString(): string & DocumentTypeDecoration<TResult, TVariables> {
    return this.value;
  }
}

export const ConsoleAuditDocument = new TypedDocumentString(`
    query ConsoleAudit($project: String!, $action: [String!], $actor: String, $actorKind: String, $from: String, $to: String, $page: Int, $limit: Int) {
  audit(
    project_id: $project
    action: $action
    actor: $actor
    actorKind: $actorKind
    from: $from
    to: $to
    page: $page
    limit: $limit
  ) {
    _id
    action
    target
    targetType
    address
    before
    after
    details
    createdAt
    actor {
      kind
      id
      name
    }
  }
  auditCount(
    project_id: $project
    action: $action
    actor: $actor
    actorKind: $actorKind
    from: $from
    to: $to
  )
}
    `) as unknown as TypedDocumentString<ConsoleAuditQuery, ConsoleAuditQueryVariables>;
export const ConsoleMergeRequestsDocument = new TypedDocumentString(`
    mutation ConsoleMergeRequests($project: String!, $request: String!, $from: [String!]!) {
  mergeRequests(project_id: $project, request_id: $request, from: $from) {
    request_id
  }
}
    `) as unknown as TypedDocumentString<ConsoleMergeRequestsMutation, ConsoleMergeRequestsMutationVariables>;
export const ConsoleMergedTargetDocument = new TypedDocumentString(`
    query ConsoleMergedTarget($project: String!, $request: String!) {
  request(project_id: $project, request_id: $request) {
    request_id
    ticket_id
    first_text
    lead {
      fullname
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleMergedTargetQuery, ConsoleMergedTargetQueryVariables>;
export const ConsoleReportConversationsDocument = new TypedDocumentString(`
    query ConsoleReportConversations($project: String!, $status: String, $start: String, $end: String, $assignee: String, $dept: String, $tags: String, $rating: Float, $active: String, $page: Int) {
  requests(
    project_id: $project
    status: $status
    start_date: $start
    end_date: $end
    assignee: $assignee
    dept_id: $dept
    tags: $tags
    rating: $rating
    active_date: $active
    sortField: "createdAt"
    direction: 1
    page: $page
    limit: 50
  ) {
    count
    perPage
    requests {
      request_id
      ticket_id
      status
      first_text
      createdAt
      merged_into
      lead {
        fullname
        email
      }
      department {
        name
      }
      agents {
        id_user {
          fullName
          email
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleReportConversationsQuery, ConsoleReportConversationsQueryVariables>;
export const ConsoleScheduledMessagesDocument = new TypedDocumentString(`
    query ConsoleScheduledMessages($project: String!, $request: String!) {
  scheduledMessages(project_id: $project, request_id: $request) {
    _id
    text
    scheduled_at
    status
    reason
  }
}
    `) as unknown as TypedDocumentString<ConsoleScheduledMessagesQuery, ConsoleScheduledMessagesQueryVariables>;
export const ConsoleScheduleMessageDocument = new TypedDocumentString(`
    mutation ConsoleScheduleMessage($project: String!, $request: String!, $text: String!, $at: String!) {
  scheduleMessage(
    project_id: $project
    request_id: $request
    text: $text
    scheduled_at: $at
  ) {
    _id
  }
}
    `) as unknown as TypedDocumentString<ConsoleScheduleMessageMutation, ConsoleScheduleMessageMutationVariables>;
export const ConsoleEditScheduledDocument = new TypedDocumentString(`
    mutation ConsoleEditScheduled($project: String!, $request: String!, $id: String!, $text: String, $at: String) {
  updateScheduledMessage(
    project_id: $project
    request_id: $request
    id: $id
    text: $text
    scheduled_at: $at
  ) {
    _id
  }
}
    `) as unknown as TypedDocumentString<ConsoleEditScheduledMutation, ConsoleEditScheduledMutationVariables>;
export const ConsoleCancelScheduledDocument = new TypedDocumentString(`
    mutation ConsoleCancelScheduled($project: String!, $request: String!, $id: String!) {
  cancelScheduledMessage(project_id: $project, request_id: $request, id: $id) {
    _id
  }
}
    `) as unknown as TypedDocumentString<ConsoleCancelScheduledMutation, ConsoleCancelScheduledMutationVariables>;
export const ConsoleSuggestionsDocument = new TypedDocumentString(`
    query ConsoleSuggestions($project: String!, $request: String!) {
  requestSuggestions(project_id: $project, request_id: $request) {
    question
    language
    sentiment
    replies {
      text
      source
      ref
      score
    }
    tags {
      tag
      score
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleSuggestionsQuery, ConsoleSuggestionsQueryVariables>;
export const ConsoleSummaryDocument = new TypedDocumentString(`
    query ConsoleSummary($project: String!, $request: String!) {
  requestSummary(project_id: $project, request_id: $request) {
    summary
    method
    by
    createdAt
  }
}
    `) as unknown as TypedDocumentString<ConsoleSummaryQuery, ConsoleSummaryQueryVariables>;
export const ConsoleSummarizeDocument = new TypedDocumentString(`
    mutation ConsoleSummarize($project: String!, $request: String!) {
  summarizeRequest(project_id: $project, request_id: $request) {
    summary
    method
    by
    createdAt
  }
}
    `) as unknown as TypedDocumentString<ConsoleSummarizeMutation, ConsoleSummarizeMutationVariables>;
export const ConsoleKbProposalsDocument = new TypedDocumentString(`
    query ConsoleKbProposals($project: String!) {
  kbProposals(project_id: $project, limit: 20) {
    _id
    question
    answer
    count
    examples
    namespace
  }
}
    `) as unknown as TypedDocumentString<ConsoleKbProposalsQuery, ConsoleKbProposalsQueryVariables>;
export const ConsoleAcceptKbProposalDocument = new TypedDocumentString(`
    mutation ConsoleAcceptKbProposal($project: String!, $id: String!, $question: String, $answer: String) {
  acceptKbProposal(
    project_id: $project
    proposal_id: $id
    question: $question
    answer: $answer
  ) {
    _id
    status
    content_id
  }
}
    `) as unknown as TypedDocumentString<ConsoleAcceptKbProposalMutation, ConsoleAcceptKbProposalMutationVariables>;
export const ConsoleUpdateKbProposalDocument = new TypedDocumentString(`
    mutation ConsoleUpdateKbProposal($project: String!, $id: String!, $question: String, $answer: String) {
  updateKbProposal(
    project_id: $project
    proposal_id: $id
    question: $question
    answer: $answer
  ) {
    _id
    question
    answer
  }
}
    `) as unknown as TypedDocumentString<ConsoleUpdateKbProposalMutation, ConsoleUpdateKbProposalMutationVariables>;
export const ConsoleDismissKbProposalDocument = new TypedDocumentString(`
    mutation ConsoleDismissKbProposal($project: String!, $id: String!) {
  dismissKbProposal(project_id: $project, proposal_id: $id) {
    _id
    status
  }
}
    `) as unknown as TypedDocumentString<ConsoleDismissKbProposalMutation, ConsoleDismissKbProposalMutationVariables>;
export const ConsoleKbTestsDocument = new TypedDocumentString(`
    query ConsoleKbTests($project: String!, $namespace: String) {
  kbTests(project_id: $project, namespace: $namespace) {
    namespace
    tests {
      id
      question
      expected
    }
    last_run {
      id
      trigger
      total
      passed
      pass_rate
      createdAt
      failures {
        question
        expected
        found {
          id
          name
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleKbTestsQuery, ConsoleKbTestsQueryVariables>;
export const ConsoleSaveKbTestsDocument = new TypedDocumentString(`
    mutation ConsoleSaveKbTests($project: String!, $namespace: String, $tests: JSON) {
  saveKbTests(project_id: $project, namespace: $namespace, tests: $tests) {
    namespace
  }
}
    `) as unknown as TypedDocumentString<ConsoleSaveKbTestsMutation, ConsoleSaveKbTestsMutationVariables>;
export const ConsoleRunKbTestsDocument = new TypedDocumentString(`
    mutation ConsoleRunKbTests($project: String!, $namespace: String) {
  runKbTests(project_id: $project, namespace: $namespace) {
    id
  }
}
    `) as unknown as TypedDocumentString<ConsoleRunKbTestsMutation, ConsoleRunKbTestsMutationVariables>;
export const ManageTeamDocument = new TypedDocumentString(`
    query ManageTeam($project: String!) {
  teammates(project_id: $project) {
    _id
    role
    user_available
    id_user {
      _id
      fullName
      email
    }
  }
}
    `) as unknown as TypedDocumentString<ManageTeamQuery, ManageTeamQueryVariables>;
export const ManageInvitationsDocument = new TypedDocumentString(`
    query ManageInvitations($project: String!) {
  invitations(project_id: $project) {
    _id
    email
    role
    createdAt
  }
}
    `) as unknown as TypedDocumentString<ManageInvitationsQuery, ManageInvitationsQueryVariables>;
export const ManageInviteDocument = new TypedDocumentString(`
    mutation ManageInvite($project: String!, $email: String!, $role: String!) {
  inviteTeammate(project_id: $project, email: $email, role: $role) {
    success
    pending
  }
}
    `) as unknown as TypedDocumentString<ManageInviteMutation, ManageInviteMutationVariables>;
export const ManageDepartmentsDocument = new TypedDocumentString(`
    query ManageDepartments($project: String!) {
  departments(project_id: $project) {
    _id
    name
    default
    routing
    id_bot
    id_group
    status
  }
  groups(project_id: $project) {
    _id
    name
    members
  }
  bots(project_id: $project) {
    _id
    name
  }
}
    `) as unknown as TypedDocumentString<ManageDepartmentsQuery, ManageDepartmentsQueryVariables>;
export const ManageCreateDepartmentDocument = new TypedDocumentString(`
    mutation ManageCreateDepartment($project: String!, $name: String!, $routing: String, $bot: String) {
  createDepartment(
    project_id: $project
    name: $name
    routing: $routing
    id_bot: $bot
  ) {
    _id
  }
}
    `) as unknown as TypedDocumentString<ManageCreateDepartmentMutation, ManageCreateDepartmentMutationVariables>;
export const ManageSetDepartmentBotDocument = new TypedDocumentString(`
    mutation ManageSetDepartmentBot($project: String!, $id: String!, $bot: String) {
  updateDepartment(project_id: $project, id: $id, id_bot: $bot) {
    _id
    id_bot
  }
}
    `) as unknown as TypedDocumentString<ManageSetDepartmentBotMutation, ManageSetDepartmentBotMutationVariables>;
export const ManageCreateGroupDocument = new TypedDocumentString(`
    mutation ManageCreateGroup($project: String!, $name: String!, $members: [String!]) {
  createGroup(project_id: $project, name: $name, members: $members) {
    _id
  }
}
    `) as unknown as TypedDocumentString<ManageCreateGroupMutation, ManageCreateGroupMutationVariables>;
export const ManageBotsDocument = new TypedDocumentString(`
    query ManageBots($project: String!) {
  bots(project_id: $project) {
    _id
    name
    type
    kb_namespace
  }
  intents(project_id: $project, limit: 0) {
    _id
    id_faq_kb
    intent_display_name
    question
    answer
  }
}
    `) as unknown as TypedDocumentString<ManageBotsQuery, ManageBotsQueryVariables>;
export const ManageCreateBotDocument = new TypedDocumentString(`
    mutation ManageCreateBot($project: String!, $name: String!, $template: String) {
  createBot(project_id: $project, name: $name, template: $template) {
    _id
  }
}
    `) as unknown as TypedDocumentString<ManageCreateBotMutation, ManageCreateBotMutationVariables>;
export const ManageCreateIntentDocument = new TypedDocumentString(`
    mutation ManageCreateIntent($project: String!, $bot: String!, $question: String!, $answer: String!) {
  createIntent(
    project_id: $project
    id_faq_kb: $bot
    question: $question
    answer: $answer
  ) {
    _id
  }
}
    `) as unknown as TypedDocumentString<ManageCreateIntentMutation, ManageCreateIntentMutationVariables>;
export const ManageKbsDocument = new TypedDocumentString(`
    query ManageKbs($project: String!) {
  kbNamespaces(project_id: $project) {
    _id
    name
    default
    preview_settings {
      model
      top_k
      temperature
      max_tokens
    }
  }
}
    `) as unknown as TypedDocumentString<ManageKbsQuery, ManageKbsQueryVariables>;
export const ManageKbContentsDocument = new TypedDocumentString(`
    query ManageKbContents($project: String!, $namespace: String!) {
  kbContents(project_id: $project, namespace: $namespace, limit: 100) {
    count
    kbs {
      _id
      name
      type
      source
      status
      error
      updatedAt
    }
  }
}
    `) as unknown as TypedDocumentString<ManageKbContentsQuery, ManageKbContentsQueryVariables>;
export const ManageKbIndexingDocument = new TypedDocumentString(`
    subscription ManageKbIndexing($project: String!, $namespace: String!, $after: Int) {
  kbIndexing(project_id: $project, namespace: $namespace, after: $after) {
    seq
    content_id
    status
    error
  }
}
    `) as unknown as TypedDocumentString<ManageKbIndexingSubscription, ManageKbIndexingSubscriptionVariables>;
export const ManageCreateKbDocument = new TypedDocumentString(`
    mutation ManageCreateKb($project: String!, $name: String!) {
  createKbNamespace(project_id: $project, name: $name) {
    _id
  }
}
    `) as unknown as TypedDocumentString<ManageCreateKbMutation, ManageCreateKbMutationVariables>;
export const ManageAddKbContentDocument = new TypedDocumentString(`
    mutation ManageAddKbContent($project: String!, $namespace: String!, $name: String!, $type: String!, $source: String, $content: String) {
  createKbContent(
    project_id: $project
    namespace: $namespace
    name: $name
    type: $type
    source: $source
    content: $content
  ) {
    value {
      _id
      status
    }
  }
}
    `) as unknown as TypedDocumentString<ManageAddKbContentMutation, ManageAddKbContentMutationVariables>;
export const ManageReadSitemapDocument = new TypedDocumentString(`
    mutation ManageReadSitemap($project: String!, $sitemap: String!) {
  readKbSitemap(project_id: $project, sitemap: $sitemap) {
    sites
    errors {
      url
      message
    }
  }
}
    `) as unknown as TypedDocumentString<ManageReadSitemapMutation, ManageReadSitemapMutationVariables>;
export const ManageAddKbPagesDocument = new TypedDocumentString(`
    mutation ManageAddKbPages($project: String!, $namespace: String!, $list: [String!]!) {
  createKbContents(project_id: $project, namespace: $namespace, list: $list) {
    _id
  }
}
    `) as unknown as TypedDocumentString<ManageAddKbPagesMutation, ManageAddKbPagesMutationVariables>;
export const ManageDeleteKbContentDocument = new TypedDocumentString(`
    mutation ManageDeleteKbContent($project: String!, $id: String!) {
  deleteKbContent(project_id: $project, content_id: $id) {
    _id
  }
}
    `) as unknown as TypedDocumentString<ManageDeleteKbContentMutation, ManageDeleteKbContentMutationVariables>;
export const ManageWebhooksDocument = new TypedDocumentString(`
    query ManageWebhooks($project: String!) {
  webhookSubscriptions(project_id: $project) {
    _id
    event
    target
    enabled
    disabledReason
    disabledAt
  }
}
    `) as unknown as TypedDocumentString<ManageWebhooksQuery, ManageWebhooksQueryVariables>;
export const ManageWebhookDeliveriesDocument = new TypedDocumentString(`
    query ManageWebhookDeliveries($project: String!, $id: String!) {
  webhookDeliveries(project_id: $project, id: $id, limit: 20) {
    count
    deliveries {
      _id
      event
      status
      createdAt
      nextAttemptAt
      attempts {
        at
        attempt
        error
        reason
        redelivery
        statusCode
        durationMs
      }
    }
  }
}
    `) as unknown as TypedDocumentString<ManageWebhookDeliveriesQuery, ManageWebhookDeliveriesQueryVariables>;
export const ManageCreateWebhookDocument = new TypedDocumentString(`
    mutation ManageCreateWebhook($project: String!, $event: String!, $target: String!) {
  createWebhookSubscription(project_id: $project, event: $event, target: $target) {
    _id
    signingSecret
  }
}
    `) as unknown as TypedDocumentString<ManageCreateWebhookMutation, ManageCreateWebhookMutationVariables>;
export const ManageRedeliverDocument = new TypedDocumentString(`
    mutation ManageRedeliver($project: String!, $id: String!, $delivery: String!) {
  redeliverWebhook(project_id: $project, id: $id, delivery_id: $delivery) {
    _id
    status
    attempts {
      at
      statusCode
      error
      redelivery
    }
  }
}
    `) as unknown as TypedDocumentString<ManageRedeliverMutation, ManageRedeliverMutationVariables>;
export const ManageRemoveTeammateDocument = new TypedDocumentString(`
    mutation ManageRemoveTeammate($project: String!, $id: String!) {
  removeTeammate(project_id: $project, project_user_id: $id) {
    _id
  }
}
    `) as unknown as TypedDocumentString<ManageRemoveTeammateMutation, ManageRemoveTeammateMutationVariables>;
export const ManageChangeRoleDocument = new TypedDocumentString(`
    mutation ManageChangeRole($project: String!, $id: String!, $role: String!) {
  updateTeammate(project_id: $project, project_user_id: $id, role: $role) {
    _id
    role
  }
}
    `) as unknown as TypedDocumentString<ManageChangeRoleMutation, ManageChangeRoleMutationVariables>;
export const ManageRevokeInvitationDocument = new TypedDocumentString(`
    mutation ManageRevokeInvitation($project: String!, $id: String!) {
  revokeInvitation(project_id: $project, invitation_id: $id) {
    _id
  }
}
    `) as unknown as TypedDocumentString<ManageRevokeInvitationMutation, ManageRevokeInvitationMutationVariables>;
export const ManageCreateCannedDocument = new TypedDocumentString(`
    mutation ManageCreateCanned($project: String!, $title: String!, $text: String!) {
  createCannedResponse(project_id: $project, title: $title, text: $text) {
    _id
  }
}
    `) as unknown as TypedDocumentString<ManageCreateCannedMutation, ManageCreateCannedMutationVariables>;
export const ManageEnableWebhookDocument = new TypedDocumentString(`
    mutation ManageEnableWebhook($project: String!, $id: String!) {
  enableWebhookSubscription(project_id: $project, id: $id) {
    _id
    enabled
  }
}
    `) as unknown as TypedDocumentString<ManageEnableWebhookMutation, ManageEnableWebhookMutationVariables>;
export const ConsoleEventPayloadsDocument = new TypedDocumentString(`
    subscription ConsoleEventPayloads($project: String!, $after: Int) {
  projectEvents(project_id: $project, after: $after) {
    seq
    name
    subject
    payload
  }
}
    `) as unknown as TypedDocumentString<ConsoleEventPayloadsSubscription, ConsoleEventPayloadsSubscriptionVariables>;
export const ConsoleSigninDocument = new TypedDocumentString(`
    mutation ConsoleSignin($email: String!, $password: String!) {
  signin(email: $email, password: $password) {
    token
    user {
      _id
      email
      fullName
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleSigninMutation, ConsoleSigninMutationVariables>;
export const ConsoleSignupDocument = new TypedDocumentString(`
    mutation ConsoleSignup($email: String!, $password: String!, $firstname: String, $lastname: String) {
  signup(
    email: $email
    password: $password
    firstname: $firstname
    lastname: $lastname
  ) {
    token
    user {
      _id
      email
      fullName
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleSignupMutation, ConsoleSignupMutationVariables>;
export const ConsoleProjectsDocument = new TypedDocumentString(`
    query ConsoleProjects {
  projects {
    _id
    role
    user_available
    id_project {
      _id
      name
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleProjectsQuery, ConsoleProjectsQueryVariables>;
export const ConsoleCreateProjectDocument = new TypedDocumentString(`
    mutation ConsoleCreateProject($name: String!) {
  createProject(name: $name) {
    _id
    name
  }
}
    `) as unknown as TypedDocumentString<ConsoleCreateProjectMutation, ConsoleCreateProjectMutationVariables>;
export const ConsoleInboxDocument = new TypedDocumentString(`
    query ConsoleInbox($project: String!, $status: String, $assignee: String, $sortField: String, $direction: Int, $dept: String, $tags: String, $channel: String, $priority: [String!]) {
  requests(
    project_id: $project
    status: $status
    assignee: $assignee
    sortField: $sortField
    direction: $direction
    dept_id: $dept
    tags: $tags
    channel: $channel
    priority: $priority
    limit: 100
  ) {
    count
    requests {
      _id
      request_id
      ticket_id
      status
      priority
      first_text
      createdAt
      updatedAt
      hasBot
      participatingAgents
      tags
      unread
      lead {
        _id
        fullname
        email
      }
      sla {
        firstResponseDueAt
        nextResponseDueAt
        resolutionDueAt
        met
        breached
      }
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleInboxQuery, ConsoleInboxQueryVariables>;
export const ConsoleInboxCountsDocument = new TypedDocumentString(`
    query ConsoleInboxCounts($project: String!) {
  mine: requests(project_id: $project, assignee: "me", limit: 100) {
    count
    requests {
      request_id
      unread
    }
  }
  unassigned: requests(project_id: $project, status: "100", limit: 100) {
    count
    requests {
      request_id
      unread
    }
  }
  open: requests(project_id: $project, limit: 100) {
    count
    requests {
      request_id
      unread
    }
  }
  closed: requests(project_id: $project, status: "1000", limit: 1) {
    count
    requests {
      request_id
      unread
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleInboxCountsQuery, ConsoleInboxCountsQueryVariables>;
export const ConsoleProjectEventsDocument = new TypedDocumentString(`
    subscription ConsoleProjectEvents($project: String!, $after: Int) {
  projectEvents(project_id: $project, after: $after) {
    seq
    name
    subject
  }
}
    `) as unknown as TypedDocumentString<ConsoleProjectEventsSubscription, ConsoleProjectEventsSubscriptionVariables>;
export const ConsoleMyInvitationsDocument = new TypedDocumentString(`
    query ConsoleMyInvitations {
  myInvitations {
    _id
    id_project
    project_name
    role
    createdAt
  }
}
    `) as unknown as TypedDocumentString<ConsoleMyInvitationsQuery, ConsoleMyInvitationsQueryVariables>;
export const ConsoleAcceptInvitationDocument = new TypedDocumentString(`
    mutation ConsoleAcceptInvitation($id: String!) {
  acceptInvitation(invitation_id: $id) {
    _id
    id_project
    role
  }
}
    `) as unknown as TypedDocumentString<ConsoleAcceptInvitationMutation, ConsoleAcceptInvitationMutationVariables>;
export const ConsoleDeclineInvitationDocument = new TypedDocumentString(`
    mutation ConsoleDeclineInvitation($id: String!) {
  declineInvitation(invitation_id: $id) {
    _id
  }
}
    `) as unknown as TypedDocumentString<ConsoleDeclineInvitationMutation, ConsoleDeclineInvitationMutationVariables>;
export const ConsoleSignupWithInvitationDocument = new TypedDocumentString(`
    mutation ConsoleSignupWithInvitation($id: String!, $token: String!, $password: String!, $firstname: String, $lastname: String) {
  signupWithInvitation(
    invitation_id: $id
    token: $token
    password: $password
    firstname: $firstname
    lastname: $lastname
  ) {
    token
    user {
      _id
      email
      fullName
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleSignupWithInvitationMutation, ConsoleSignupWithInvitationMutationVariables>;
export const ConsoleVerifyEmailDocument = new TypedDocumentString(`
    mutation ConsoleVerifyEmail($token: String!) {
  verifyEmail(token: $token) {
    token
    user {
      _id
      email
      fullName
      emailverified
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleVerifyEmailMutation, ConsoleVerifyEmailMutationVariables>;
export const ConsoleRequestPasswordResetDocument = new TypedDocumentString(`
    mutation ConsoleRequestPasswordReset($email: String!) {
  requestPasswordReset(email: $email) {
    success
  }
}
    `) as unknown as TypedDocumentString<ConsoleRequestPasswordResetMutation, ConsoleRequestPasswordResetMutationVariables>;
export const ConsoleResetPasswordDocument = new TypedDocumentString(`
    mutation ConsoleResetPassword($token: String!, $password: String!) {
  resetPassword(token: $token, password: $password) {
    token
    user {
      _id
      email
      fullName
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleResetPasswordMutation, ConsoleResetPasswordMutationVariables>;
export const ConsoleRequestEventsDocument = new TypedDocumentString(`
    subscription ConsoleRequestEvents($project: String!, $after: Int) {
  projectRequests(project_id: $project, after: $after) {
    seq
    name
    request_id
  }
}
    `) as unknown as TypedDocumentString<ConsoleRequestEventsSubscription, ConsoleRequestEventsSubscriptionVariables>;
export const ConsoleConversationDocument = new TypedDocumentString(`
    query ConsoleConversation($project: String!, $request: String!) {
  request(project_id: $project, request_id: $request) {
    _id
    request_id
    ticket_id
    status
    priority
    first_text
    participatingAgents
    participatingBots
    hasBot
    tags
    merged_into
    rating
    rating_message
    closed_at
    createdAt
    sourcePage
    sla {
      policy {
        name
      }
      firstResponseDueAt
      nextResponseDueAt
      resolutionDueAt
      met
      breached
    }
    agents {
      _id
      id_user {
        _id
        fullName
        email
      }
    }
    department {
      _id
      name
    }
    lead {
      _id
      fullname
      email
    }
    notes {
      _id
      text
      createdAt
    }
  }
  messages(project_id: $project, request_id: $request) {
    _id
    sender
    senderFullname
    text
    type
    metadata
    attributes
    createdAt
    status
    receipts
    hidden
    sentByBot
  }
  requestTimeline(project_id: $project, request_id: $request) {
    seq
    name
    at
    text
  }
}
    `) as unknown as TypedDocumentString<ConsoleConversationQuery, ConsoleConversationQueryVariables>;
export const ConsoleMessageEventsDocument = new TypedDocumentString(`
    subscription ConsoleMessageEvents($project: String!, $request: String!, $after: Int) {
  requestMessages(project_id: $project, request_id: $request, after: $after) {
    seq
    message {
      _id
      sender
      senderFullname
      text
      type
      metadata
      attributes
      createdAt
      status
      receipts
      hidden
      sentByBot
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleMessageEventsSubscription, ConsoleMessageEventsSubscriptionVariables>;
export const ConsoleReplyDocument = new TypedDocumentString(`
    mutation ConsoleReply($project: String!, $request: String!, $text: String!, $attributes: JSON, $type: String, $metadata: JSON) {
  sendMessage(
    project_id: $project
    request_id: $request
    text: $text
    attributes: $attributes
    type: $type
    metadata: $metadata
  ) {
    _id
    sender
    senderFullname
    text
    type
    metadata
    attributes
    createdAt
    status
    receipts
    hidden
    sentByBot
  }
}
    `) as unknown as TypedDocumentString<ConsoleReplyMutation, ConsoleReplyMutationVariables>;
export const ConsoleTakeDocument = new TypedDocumentString(`
    mutation ConsoleTake($project: String!, $request: String!) {
  takeRequest(project_id: $project, request_id: $request) {
    request_id
    status
    participatingAgents
  }
}
    `) as unknown as TypedDocumentString<ConsoleTakeMutation, ConsoleTakeMutationVariables>;
export const ConsoleCloseDocument = new TypedDocumentString(`
    mutation ConsoleClose($project: String!, $request: String!) {
  closeRequest(project_id: $project, request_id: $request) {
    request_id
    status
  }
}
    `) as unknown as TypedDocumentString<ConsoleCloseMutation, ConsoleCloseMutationVariables>;
export const ConsoleReopenDocument = new TypedDocumentString(`
    mutation ConsoleReopen($project: String!, $request: String!) {
  reopenRequest(project_id: $project, request_id: $request) {
    request_id
    status
  }
}
    `) as unknown as TypedDocumentString<ConsoleReopenMutation, ConsoleReopenMutationVariables>;
export const ConsoleAddNoteDocument = new TypedDocumentString(`
    mutation ConsoleAddNote($project: String!, $request: String!, $text: String!) {
  addRequestNote(project_id: $project, request_id: $request, text: $text) {
    request_id
    notes {
      _id
      text
      createdAt
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleAddNoteMutation, ConsoleAddNoteMutationVariables>;
export const ConsoleRemoveTagDocument = new TypedDocumentString(`
    mutation ConsoleRemoveTag($project: String!, $request: String!, $tag: String!) {
  removeRequestTag(project_id: $project, request_id: $request, tag: $tag) {
    request_id
    tags
  }
}
    `) as unknown as TypedDocumentString<ConsoleRemoveTagMutation, ConsoleRemoveTagMutationVariables>;
export const ConsoleAddTagDocument = new TypedDocumentString(`
    mutation ConsoleAddTag($project: String!, $request: String!, $tag: JSON!) {
  addRequestTags(project_id: $project, request_id: $request, tag: $tag) {
    request_id
    tags
  }
}
    `) as unknown as TypedDocumentString<ConsoleAddTagMutation, ConsoleAddTagMutationVariables>;
export const ConsoleCannedDocument = new TypedDocumentString(`
    query ConsoleCanned($project: String!) {
  cannedResponses(project_id: $project, limit: 100) {
    _id
    title
    text
  }
}
    `) as unknown as TypedDocumentString<ConsoleCannedQuery, ConsoleCannedQueryVariables>;
export const ConsoleRenderCannedDocument = new TypedDocumentString(`
    query ConsoleRenderCanned($project: String!, $id: String!, $request: String!) {
  renderCannedResponse(project_id: $project, id: $id, request_id: $request) {
    text
  }
}
    `) as unknown as TypedDocumentString<ConsoleRenderCannedQuery, ConsoleRenderCannedQueryVariables>;
export const ConsoleTeamDocument = new TypedDocumentString(`
    query ConsoleTeam($project: String!) {
  teammates(project_id: $project) {
    _id
    role
    user_available
    presence {
      status
    }
    id_user {
      _id
      fullName
      email
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleTeamQuery, ConsoleTeamQueryVariables>;
export const ConsolePresenceDocument = new TypedDocumentString(`
    subscription ConsolePresence($project: String!, $after: Int) {
  teammatePresence(project_id: $project, after: $after) {
    seq
    status
    teammate {
      _id
      user_available
    }
  }
}
    `) as unknown as TypedDocumentString<ConsolePresenceSubscription, ConsolePresenceSubscriptionVariables>;
export const ConsoleSetAvailableDocument = new TypedDocumentString(`
    mutation ConsoleSetAvailable($project: String!, $available: Boolean!) {
  updateMyTeammate(project_id: $project, user_available: $available) {
    _id
    user_available
  }
}
    `) as unknown as TypedDocumentString<ConsoleSetAvailableMutation, ConsoleSetAvailableMutationVariables>;
export const ConsoleAssignTargetsDocument = new TypedDocumentString(`
    query ConsoleAssignTargets($project: String!) {
  departments(project_id: $project) {
    _id
    name
    id_bot
  }
  teammates(project_id: $project) {
    _id
    role
    id_user {
      _id
      fullName
      email
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleAssignTargetsQuery, ConsoleAssignTargetsQueryVariables>;
export const ConsoleRouteDocument = new TypedDocumentString(`
    mutation ConsoleRoute($project: String!, $request: String!, $department: String!) {
  routeRequest(
    project_id: $project
    request_id: $request
    departmentid: $department
  ) {
    request_id
    status
  }
}
    `) as unknown as TypedDocumentString<ConsoleRouteMutation, ConsoleRouteMutationVariables>;
export const ConsoleAssignDocument = new TypedDocumentString(`
    mutation ConsoleAssign($project: String!, $request: String!, $participants: [String!]!) {
  setRequestParticipants(
    project_id: $project
    request_id: $request
    participants: $participants
  ) {
    request_id
    status
    participatingAgents
  }
}
    `) as unknown as TypedDocumentString<ConsoleAssignMutation, ConsoleAssignMutationVariables>;
export const ConsoleReportsDocument = new TypedDocumentString(`
    query ConsoleReports($project: String!) {
  analyticsRequestCount(project_id: $project) {
    count
  }
  analyticsBotRequestCount(project_id: $project) {
    count
  }
  analyticsRequestsByDay(project_id: $project) {
    date
    count
  }
  analyticsMessagesByDay(project_id: $project) {
    date
    count
  }
  analyticsRequestsByHourOfWeek(project_id: $project) {
    weekday
    hour
    count
  }
  analyticsWaitingTime(project_id: $project) {
    average
    count
  }
  analyticsRequestDuration(project_id: $project) {
    average
    median
    count
  }
  analyticsSatisfaction(project_id: $project) {
    average
    count
  }
  analyticsSatisfactionDistribution(project_id: $project) {
    rating
    count
  }
  analyticsFirstResponseByAgent(project_id: $project) {
    id_user
    fullname
    average
    median
    count
  }
}
    `) as unknown as TypedDocumentString<ConsoleReportsQuery, ConsoleReportsQueryVariables>;
export const ConsoleMarkSeenDocument = new TypedDocumentString(`
    mutation ConsoleMarkSeen($project: String!, $request: String!) {
  markRequestSeen(project_id: $project, request_id: $request) {
    request_id
    unread
  }
}
    `) as unknown as TypedDocumentString<ConsoleMarkSeenMutation, ConsoleMarkSeenMutationVariables>;
export const ConsoleContactDocument = new TypedDocumentString(`
    query ConsoleContact($project: String!, $request: String!) {
  request(project_id: $project, request_id: $request) {
    request_id
    sourcePage
    userAgent
    location
    device
    browser {
      name
      version
    }
    os {
      name
      version
    }
    lead {
      _id
      fullname
      email
      phone
      company
      attributes
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleContactQuery, ConsoleContactQueryVariables>;
export const ConsoleLeadConversationsDocument = new TypedDocumentString(`
    query ConsoleLeadConversations($project: String!, $lead: String!) {
  requests(
    project_id: $project
    lead: $lead
    status: "all"
    sortField: "createdAt"
    limit: 20
  ) {
    count
    requests {
      request_id
      ticket_id
      first_text
      status
      createdAt
      merged_into
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleLeadConversationsQuery, ConsoleLeadConversationsQueryVariables>;
export const ConsoleUpdateLeadDocument = new TypedDocumentString(`
    mutation ConsoleUpdateLead($project: String!, $id: String!, $fullname: String, $email: String, $phone: String) {
  updateLead(
    project_id: $project
    id: $id
    fullname: $fullname
    email: $email
    phone: $phone
  ) {
    _id
    fullname
    email
    phone
  }
}
    `) as unknown as TypedDocumentString<ConsoleUpdateLeadMutation, ConsoleUpdateLeadMutationVariables>;
export const ConsoleLeadExportDocument = new TypedDocumentString(`
    query ConsoleLeadExport($project: String!, $id: String!) {
  leadExport(project_id: $project, id: $id)
}
    `) as unknown as TypedDocumentString<ConsoleLeadExportQuery, ConsoleLeadExportQueryVariables>;
export const ConsoleEraseLeadDocument = new TypedDocumentString(`
    mutation ConsoleEraseLead($project: String!, $id: String!) {
  deleteLead(project_id: $project, id: $id, erase: true) {
    _id
    fullname
    email
  }
}
    `) as unknown as TypedDocumentString<ConsoleEraseLeadMutation, ConsoleEraseLeadMutationVariables>;
export const ConsoleProjectRetentionDocument = new TypedDocumentString(`
    query ConsoleProjectRetention($project: String!) {
  project(project_id: $project) {
    _id
    retention_days
  }
}
    `) as unknown as TypedDocumentString<ConsoleProjectRetentionQuery, ConsoleProjectRetentionQueryVariables>;
export const ConsoleUpdateRetentionDocument = new TypedDocumentString(`
    mutation ConsoleUpdateRetention($project: String!, $days: Int!) {
  updateProject(project_id: $project, retention_days: $days) {
    _id
    retention_days
  }
}
    `) as unknown as TypedDocumentString<ConsoleUpdateRetentionMutation, ConsoleUpdateRetentionMutationVariables>;
export const ConsoleSearchDocument = new TypedDocumentString(`
    query ConsoleSearch($project: String!, $q: String!) {
  search(project_id: $project, q: $q, limit: 8) {
    requests {
      request_id
      ticket_id
      first_text
      lead {
        fullname
        email
      }
    }
    messages {
      _id
      text
      recipient
      senderFullname
      createdAt
    }
    leads {
      _id
      fullname
      email
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleSearchQuery, ConsoleSearchQueryVariables>;
export const ConsoleFilterTargetsDocument = new TypedDocumentString(`
    query ConsoleFilterTargets($project: String!) {
  departments(project_id: $project) {
    _id
    name
  }
  teammates(project_id: $project) {
    _id
    role
    id_user {
      _id
      fullName
      email
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleFilterTargetsQuery, ConsoleFilterTargetsQueryVariables>;
export const ConsoleSignOutDocument = new TypedDocumentString(`
    mutation ConsoleSignOut {
  signOut {
    success
  }
}
    `) as unknown as TypedDocumentString<ConsoleSignOutMutation, ConsoleSignOutMutationVariables>;
export const ConsoleSetPriorityDocument = new TypedDocumentString(`
    mutation ConsoleSetPriority($project: String!, $request: String!, $priority: String!) {
  updateRequest(project_id: $project, request_id: $request, priority: $priority) {
    _id
    priority
  }
}
    `) as unknown as TypedDocumentString<ConsoleSetPriorityMutation, ConsoleSetPriorityMutationVariables>;
export const ConsoleSlaPoliciesDocument = new TypedDocumentString(`
    query ConsoleSlaPolicies($project: String!) {
  slaPolicies(project_id: $project) {
    _id
    name
    departments
    priorities
    first_response_seconds
    next_response_seconds
    resolution_seconds
  }
  departments(project_id: $project) {
    _id
    name
  }
}
    `) as unknown as TypedDocumentString<ConsoleSlaPoliciesQuery, ConsoleSlaPoliciesQueryVariables>;
export const ConsoleCreateSlaPolicyDocument = new TypedDocumentString(`
    mutation ConsoleCreateSlaPolicy($project: String!, $name: String, $departments: [String!], $priorities: [String!], $first: JSON, $next: JSON, $resolution: JSON) {
  createSlaPolicy(
    project_id: $project
    name: $name
    departments: $departments
    priorities: $priorities
    first_response: $first
    next_response: $next
    resolution: $resolution
  ) {
    _id
  }
}
    `) as unknown as TypedDocumentString<ConsoleCreateSlaPolicyMutation, ConsoleCreateSlaPolicyMutationVariables>;
export const ConsoleUpdateSlaPolicyDocument = new TypedDocumentString(`
    mutation ConsoleUpdateSlaPolicy($project: String!, $id: String!, $name: String, $departments: [String!], $priorities: [String!], $first: JSON, $next: JSON, $resolution: JSON) {
  updateSlaPolicy(
    project_id: $project
    id: $id
    name: $name
    departments: $departments
    priorities: $priorities
    first_response: $first
    next_response: $next
    resolution: $resolution
  ) {
    _id
  }
}
    `) as unknown as TypedDocumentString<ConsoleUpdateSlaPolicyMutation, ConsoleUpdateSlaPolicyMutationVariables>;
export const ConsoleDeleteSlaPolicyDocument = new TypedDocumentString(`
    mutation ConsoleDeleteSlaPolicy($project: String!, $id: String!) {
  deleteSlaPolicy(project_id: $project, id: $id) {
    _id
  }
}
    `) as unknown as TypedDocumentString<ConsoleDeleteSlaPolicyMutation, ConsoleDeleteSlaPolicyMutationVariables>;
export const ConsoleSlaReportDocument = new TypedDocumentString(`
    query ConsoleSlaReport($project: String!, $from: String, $to: String) {
  analyticsSla(project_id: $project, from: $from, to: $to) {
    total
    byTarget {
      target
      breaches
    }
    byDepartment {
      department_id
      name
      breaches
    }
    byAgent {
      id_user
      fullname
      breaches
    }
    byWeek {
      week
      breaches
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleSlaReportQuery, ConsoleSlaReportQueryVariables>;
export const FileLimitsDocument = new TypedDocumentString(`
    query FileLimits {
  fileLimits {
    maxBytes
    allowedTypes
  }
}
    `) as unknown as TypedDocumentString<FileLimitsQuery, FileLimitsQueryVariables>;
export const KbAnswerStreamDocument = new TypedDocumentString(`
    subscription KbAnswerStream($project: String!, $namespace: String!, $question: String!, $topK: Int, $temperature: Float) {
  kbAnswerStream(
    project_id: $project
    namespace: $namespace
    question: $question
    top_k: $topK
    temperature: $temperature
  ) {
    delta
    done
    result {
      success
      answer
      id
      ids
      sources
      error_message
    }
  }
}
    `) as unknown as TypedDocumentString<KbAnswerStreamSubscription, KbAnswerStreamSubscriptionVariables>;
export const KbAnswerDraftsDocument = new TypedDocumentString(`
    subscription KbAnswerDrafts($project: String!, $request: String!) {
  kbAnswerDrafts(project_id: $project, request_id: $request) {
    draft_id
    sender
    text
    done
  }
}
    `) as unknown as TypedDocumentString<KbAnswerDraftsSubscription, KbAnswerDraftsSubscriptionVariables>;
export const KbFeedbackDocument = new TypedDocumentString(`
    mutation KbFeedback($project: String!, $namespace: String, $question: String!, $id: String!, $helpful: Boolean!) {
  kbFeedback(
    project_id: $project
    namespace: $namespace
    question: $question
    id: $id
    helpful: $helpful
  ) {
    __typename
  }
}
    `) as unknown as TypedDocumentString<KbFeedbackMutation, KbFeedbackMutationVariables>;
export const KbRateAnswerDocument = new TypedDocumentString(`
    mutation KbRateAnswer($project: String!, $request: String!, $message: String!, $helpful: Boolean!) {
  kbRateAnswer(
    project_id: $project
    request_id: $request
    message_id: $message
    helpful: $helpful
  ) {
    __typename
  }
}
    `) as unknown as TypedDocumentString<KbRateAnswerMutation, KbRateAnswerMutationVariables>;
export const AcknowledgeMessageDocument = new TypedDocumentString(`
    mutation AcknowledgeMessage($project: String!, $request: String!, $message: String!, $status: Int!) {
  acknowledgeMessage(
    project_id: $project
    request_id: $request
    message_id: $message
    status: $status
  ) {
    _id
    status
  }
}
    `) as unknown as TypedDocumentString<AcknowledgeMessageMutation, AcknowledgeMessageMutationVariables>;
export const SendTypingDocument = new TypedDocumentString(`
    mutation SendTyping($project: String!, $request: String!, $typing: Boolean!) {
  sendTyping(project_id: $project, request_id: $request, typing: $typing) {
    at
  }
}
    `) as unknown as TypedDocumentString<SendTypingMutation, SendTypingMutationVariables>;
export const TypingEventsDocument = new TypedDocumentString(`
    subscription TypingEvents($project: String!, $request: String!) {
  typing(project_id: $project, request_id: $request) {
    user_id
    fullname
    typing
    at
  }
}
    `) as unknown as TypedDocumentString<TypingEventsSubscription, TypingEventsSubscriptionVariables>;
export const WidgetSigninDocument = new TypedDocumentString(`
    mutation WidgetSignin($project: String!, $name: String) {
  signinAnonymously(id_project: $project, firstname: $name) {
    token
    user {
      _id
      fullName
      email
    }
  }
}
    `) as unknown as TypedDocumentString<WidgetSigninMutation, WidgetSigninMutationVariables>;
export const WidgetSettingsDocument = new TypedDocumentString(`
    query WidgetSettings($project: String!) {
  widgetSettings(project_id: $project) {
    name
    isopen
    available_agents
  }
}
    `) as unknown as TypedDocumentString<WidgetSettingsQuery, WidgetSettingsQueryVariables>;
export const WidgetMessagesDocument = new TypedDocumentString(`
    query WidgetMessages($project: String!, $request: String!) {
  messages(project_id: $project, request_id: $request) {
    _id
    sender
    senderFullname
    text
    type
    metadata
    attributes
    createdAt
    status
    receipts
    hidden
    sentByBot
  }
}
    `) as unknown as TypedDocumentString<WidgetMessagesQuery, WidgetMessagesQueryVariables>;
export const WidgetSendDocument = new TypedDocumentString(`
    mutation WidgetSend($project: String!, $request: String!, $text: String!, $attributes: JSON, $sourcePage: String, $userAgent: String, $type: String, $metadata: JSON) {
  sendMessage(
    project_id: $project
    request_id: $request
    text: $text
    attributes: $attributes
    sourcePage: $sourcePage
    userAgent: $userAgent
    type: $type
    metadata: $metadata
  ) {
    _id
    sender
    senderFullname
    text
    type
    metadata
    attributes
    createdAt
    status
    receipts
    hidden
    sentByBot
  }
}
    `) as unknown as TypedDocumentString<WidgetSendMutation, WidgetSendMutationVariables>;
export const WidgetMessageEventsDocument = new TypedDocumentString(`
    subscription WidgetMessageEvents($project: String!, $request: String!, $after: Int) {
  requestMessages(project_id: $project, request_id: $request, after: $after) {
    seq
    name
    message {
      _id
      sender
      senderFullname
      text
      type
      metadata
      attributes
      createdAt
      status
      receipts
      hidden
      sentByBot
    }
  }
}
    `) as unknown as TypedDocumentString<WidgetMessageEventsSubscription, WidgetMessageEventsSubscriptionVariables>;
export const WidgetRequestStatusDocument = new TypedDocumentString(`
    query WidgetRequestStatus($project: String!, $request: String!) {
  request(project_id: $project, request_id: $request) {
    request_id
    status
    merged_into
  }
}
    `) as unknown as TypedDocumentString<WidgetRequestStatusQuery, WidgetRequestStatusQueryVariables>;
export const WidgetRateDocument = new TypedDocumentString(`
    mutation WidgetRate($project: String!, $request: String!, $rate: Float!, $message: String) {
  rateRequest(
    project_id: $project
    request_id: $request
    rate: $rate
    rate_message: $message
  ) {
    request_id
    rating
  }
}
    `) as unknown as TypedDocumentString<WidgetRateMutation, WidgetRateMutationVariables>;