/* eslint-disable */
import * as types from './graphql.js';



/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  query ConsoleAudit($project: String!, $action: [String!], $actor: String, $actorKind: String, $from: String, $to: String, $page: Int, $limit: Int) {\n    audit(project_id: $project, action: $action, actor: $actor, actorKind: $actorKind, from: $from, to: $to, page: $page, limit: $limit) {\n      _id action target targetType address before after details createdAt\n      actor { kind id name }\n    }\n    auditCount(project_id: $project, action: $action, actor: $actor, actorKind: $actorKind, from: $from, to: $to)\n  }\n": typeof types.ConsoleAuditDocument,
    "\n  mutation ConsoleMergeRequests($project: String!, $request: String!, $from: [String!]!) {\n    mergeRequests(project_id: $project, request_id: $request, from: $from) { request_id }\n  }\n": typeof types.ConsoleMergeRequestsDocument,
    "\n  query ConsoleMergedTarget($project: String!, $request: String!) {\n    request(project_id: $project, request_id: $request) { request_id ticket_id first_text lead { fullname } }\n  }\n": typeof types.ConsoleMergedTargetDocument,
    "\n  query ConsoleReportConversations($project: String!, $status: String, $start: String, $end: String, $assignee: String, $dept: String, $tags: String, $rating: Float, $active: String, $page: Int) {\n    requests(project_id: $project, status: $status, start_date: $start, end_date: $end, assignee: $assignee, dept_id: $dept, tags: $tags, rating: $rating, active_date: $active, sortField: \"createdAt\", direction: 1, page: $page, limit: 50) {\n      count\n      perPage\n      requests {\n        request_id ticket_id status first_text createdAt merged_into\n        lead { fullname email }\n        department { name }\n        agents { id_user { fullName email } }\n      }\n    }\n  }\n": typeof types.ConsoleReportConversationsDocument,
    "\n  query ConsoleScheduledMessages($project: String!, $request: String!) {\n    scheduledMessages(project_id: $project, request_id: $request) { _id text scheduled_at status reason }\n  }\n": typeof types.ConsoleScheduledMessagesDocument,
    "\n  mutation ConsoleScheduleMessage($project: String!, $request: String!, $text: String!, $at: String!) {\n    scheduleMessage(project_id: $project, request_id: $request, text: $text, scheduled_at: $at) { _id }\n  }\n": typeof types.ConsoleScheduleMessageDocument,
    "\n  mutation ConsoleEditScheduled($project: String!, $request: String!, $id: String!, $text: String, $at: String) {\n    updateScheduledMessage(project_id: $project, request_id: $request, id: $id, text: $text, scheduled_at: $at) { _id }\n  }\n": typeof types.ConsoleEditScheduledDocument,
    "\n  mutation ConsoleCancelScheduled($project: String!, $request: String!, $id: String!) {\n    cancelScheduledMessage(project_id: $project, request_id: $request, id: $id) { _id }\n  }\n": typeof types.ConsoleCancelScheduledDocument,
    "\n  query ConsoleSuggestions($project: String!, $request: String!) {\n    requestSuggestions(project_id: $project, request_id: $request) {\n      question language sentiment\n      replies { text source ref score }\n      tags { tag score }\n    }\n  }\n": typeof types.ConsoleSuggestionsDocument,
    "\n  query ConsoleSummary($project: String!, $request: String!) {\n    requestSummary(project_id: $project, request_id: $request) { summary method by createdAt }\n  }\n": typeof types.ConsoleSummaryDocument,
    "\n  mutation ConsoleSummarize($project: String!, $request: String!) {\n    summarizeRequest(project_id: $project, request_id: $request) { summary method by createdAt }\n  }\n": typeof types.ConsoleSummarizeDocument,
    "\n  query ConsoleKbProposals($project: String!) {\n    kbProposals(project_id: $project, limit: 20) { _id question answer count examples namespace }\n  }\n": typeof types.ConsoleKbProposalsDocument,
    "\n  mutation ConsoleAcceptKbProposal($project: String!, $id: String!, $question: String, $answer: String) {\n    acceptKbProposal(project_id: $project, proposal_id: $id, question: $question, answer: $answer) { _id status content_id }\n  }\n": typeof types.ConsoleAcceptKbProposalDocument,
    "\n  mutation ConsoleUpdateKbProposal($project: String!, $id: String!, $question: String, $answer: String) {\n    updateKbProposal(project_id: $project, proposal_id: $id, question: $question, answer: $answer) { _id question answer }\n  }\n": typeof types.ConsoleUpdateKbProposalDocument,
    "\n  mutation ConsoleDismissKbProposal($project: String!, $id: String!) {\n    dismissKbProposal(project_id: $project, proposal_id: $id) { _id status }\n  }\n": typeof types.ConsoleDismissKbProposalDocument,
    "\n  query ConsoleKbTests($project: String!, $namespace: String) {\n    kbTests(project_id: $project, namespace: $namespace) {\n      namespace\n      tests { id question expected }\n      last_run { id trigger total passed pass_rate createdAt failures { question expected found { id name } } }\n    }\n  }\n": typeof types.ConsoleKbTestsDocument,
    "\n  mutation ConsoleSaveKbTests($project: String!, $namespace: String, $tests: JSON) {\n    saveKbTests(project_id: $project, namespace: $namespace, tests: $tests) { namespace }\n  }\n": typeof types.ConsoleSaveKbTestsDocument,
    "\n  mutation ConsoleRunKbTests($project: String!, $namespace: String) {\n    runKbTests(project_id: $project, namespace: $namespace) { id }\n  }\n": typeof types.ConsoleRunKbTestsDocument,
    "\n  query ManageTeam($project: String!) {\n    teammates(project_id: $project) { _id role user_available id_user { _id fullName email } }\n  }\n": typeof types.ManageTeamDocument,
    "\n  query ManageInvitations($project: String!) {\n    invitations(project_id: $project) { _id email role createdAt }\n  }\n": typeof types.ManageInvitationsDocument,
    "\n  mutation ManageInvite($project: String!, $email: String!, $role: String!) {\n    inviteTeammate(project_id: $project, email: $email, role: $role) { success pending }\n  }\n": typeof types.ManageInviteDocument,
    "\n  query ManageDepartments($project: String!) {\n    departments(project_id: $project) { _id name default routing id_bot id_group status }\n    groups(project_id: $project) { _id name members }\n    bots(project_id: $project) { _id name }\n  }\n": typeof types.ManageDepartmentsDocument,
    "\n  mutation ManageCreateDepartment($project: String!, $name: String!, $routing: String, $bot: String) {\n    createDepartment(project_id: $project, name: $name, routing: $routing, id_bot: $bot) { _id }\n  }\n": typeof types.ManageCreateDepartmentDocument,
    "\n  mutation ManageSetDepartmentBot($project: String!, $id: String!, $bot: String) {\n    updateDepartment(project_id: $project, id: $id, id_bot: $bot) { _id id_bot }\n  }\n": typeof types.ManageSetDepartmentBotDocument,
    "\n  mutation ManageCreateGroup($project: String!, $name: String!, $members: [String!]) {\n    createGroup(project_id: $project, name: $name, members: $members) { _id }\n  }\n": typeof types.ManageCreateGroupDocument,
    "\n  query ManageBots($project: String!) {\n    bots(project_id: $project) { _id name type kb_namespace }\n    intents(project_id: $project, limit: 0) { _id id_faq_kb intent_display_name question answer }\n  }\n": typeof types.ManageBotsDocument,
    "\n  mutation ManageCreateBot($project: String!, $name: String!, $template: String) {\n    createBot(project_id: $project, name: $name, template: $template) { _id }\n  }\n": typeof types.ManageCreateBotDocument,
    "\n  mutation ManageCreateIntent($project: String!, $bot: String!, $question: String!, $answer: String!) {\n    createIntent(project_id: $project, id_faq_kb: $bot, question: $question, answer: $answer) { _id }\n  }\n": typeof types.ManageCreateIntentDocument,
    "\n  query ManageKbs($project: String!) {\n    kbNamespaces(project_id: $project) { _id name default preview_settings { model top_k temperature max_tokens } }\n  }\n": typeof types.ManageKbsDocument,
    "\n  query ManageKbContents($project: String!, $namespace: String!) {\n    kbContents(project_id: $project, namespace: $namespace, limit: 100) { count kbs { _id name type source status error updatedAt } }\n  }\n": typeof types.ManageKbContentsDocument,
    "\n  subscription ManageKbIndexing($project: String!, $namespace: String!, $after: Int) {\n    kbIndexing(project_id: $project, namespace: $namespace, after: $after) { seq content_id status error }\n  }\n": typeof types.ManageKbIndexingDocument,
    "\n  mutation ManageCreateKb($project: String!, $name: String!) {\n    createKbNamespace(project_id: $project, name: $name) { _id }\n  }\n": typeof types.ManageCreateKbDocument,
    "\n  mutation ManageAddKbContent($project: String!, $namespace: String!, $name: String!, $type: String!, $source: String, $content: String) {\n    createKbContent(project_id: $project, namespace: $namespace, name: $name, type: $type, source: $source, content: $content) { value { _id status } }\n  }\n": typeof types.ManageAddKbContentDocument,
    "\n  mutation ManageReadSitemap($project: String!, $sitemap: String!) {\n    readKbSitemap(project_id: $project, sitemap: $sitemap) { sites errors { url message } }\n  }\n": typeof types.ManageReadSitemapDocument,
    "\n  mutation ManageAddKbPages($project: String!, $namespace: String!, $list: [String!]!) {\n    createKbContents(project_id: $project, namespace: $namespace, list: $list) { _id }\n  }\n": typeof types.ManageAddKbPagesDocument,
    "\n  mutation ManageDeleteKbContent($project: String!, $id: String!) {\n    deleteKbContent(project_id: $project, content_id: $id) { _id }\n  }\n": typeof types.ManageDeleteKbContentDocument,
    "\n  query ManageWebhooks($project: String!) {\n    webhookSubscriptions(project_id: $project) { _id event target enabled disabledReason disabledAt }\n  }\n": typeof types.ManageWebhooksDocument,
    "\n  query ManageWebhookDeliveries($project: String!, $id: String!) {\n    webhookDeliveries(project_id: $project, id: $id, limit: 20) {\n      count\n      deliveries { _id event status createdAt nextAttemptAt attempts { at attempt error reason redelivery statusCode durationMs } }\n    }\n  }\n": typeof types.ManageWebhookDeliveriesDocument,
    "\n  mutation ManageCreateWebhook($project: String!, $event: String!, $target: String!) {\n    createWebhookSubscription(project_id: $project, event: $event, target: $target) { _id signingSecret }\n  }\n": typeof types.ManageCreateWebhookDocument,
    "\n  mutation ManageRedeliver($project: String!, $id: String!, $delivery: String!) {\n    redeliverWebhook(project_id: $project, id: $id, delivery_id: $delivery) { _id status attempts { at statusCode error redelivery } }\n  }\n": typeof types.ManageRedeliverDocument,
    "\n  mutation ManageRemoveTeammate($project: String!, $id: String!) {\n    removeTeammate(project_id: $project, project_user_id: $id) { _id }\n  }\n": typeof types.ManageRemoveTeammateDocument,
    "\n  mutation ManageChangeRole($project: String!, $id: String!, $role: String!) {\n    updateTeammate(project_id: $project, project_user_id: $id, role: $role) { _id role }\n  }\n": typeof types.ManageChangeRoleDocument,
    "\n  mutation ManageRevokeInvitation($project: String!, $id: String!) {\n    revokeInvitation(project_id: $project, invitation_id: $id) { _id }\n  }\n": typeof types.ManageRevokeInvitationDocument,
    "\n  mutation ManageCreateCanned($project: String!, $title: String!, $text: String!) {\n    createCannedResponse(project_id: $project, title: $title, text: $text) { _id }\n  }\n": typeof types.ManageCreateCannedDocument,
    "\n  mutation ManageEnableWebhook($project: String!, $id: String!) {\n    enableWebhookSubscription(project_id: $project, id: $id) { _id enabled }\n  }\n": typeof types.ManageEnableWebhookDocument,
    "\n  subscription ConsoleEventPayloads($project: String!, $after: Int) {\n    projectEvents(project_id: $project, after: $after) { seq name subject payload }\n  }\n": typeof types.ConsoleEventPayloadsDocument,
    "\n  mutation ConsoleSignin($email: String!, $password: String!) {\n    signin(email: $email, password: $password) { token user { _id email fullName } }\n  }\n": typeof types.ConsoleSigninDocument,
    "\n  mutation ConsoleSignup($email: String!, $password: String!, $firstname: String, $lastname: String) {\n    signup(email: $email, password: $password, firstname: $firstname, lastname: $lastname) { token user { _id email fullName } }\n  }\n": typeof types.ConsoleSignupDocument,
    "\n  query ConsoleProjects {\n    projects { _id role user_available id_project { _id name } }\n  }\n": typeof types.ConsoleProjectsDocument,
    "\n  mutation ConsoleCreateProject($name: String!) {\n    createProject(name: $name) { _id name }\n  }\n": typeof types.ConsoleCreateProjectDocument,
    "\n  query ConsoleInbox($project: String!, $status: String, $assignee: String, $sortField: String, $direction: Int, $dept: String, $tags: String, $channel: String, $priority: [String!]) {\n    requests(project_id: $project, status: $status, assignee: $assignee, sortField: $sortField, direction: $direction, dept_id: $dept, tags: $tags, channel: $channel, priority: $priority, limit: 100) {\n      count\n      requests { _id request_id ticket_id status priority first_text createdAt updatedAt hasBot participatingAgents tags unread lead { _id fullname email } sla { firstResponseDueAt nextResponseDueAt resolutionDueAt met breached } }\n    }\n  }\n": typeof types.ConsoleInboxDocument,
    "\n  query ConsoleInboxCounts($project: String!) {\n    mine: requests(project_id: $project, assignee: \"me\", limit: 100) { count requests { request_id unread } }\n    unassigned: requests(project_id: $project, status: \"100\", limit: 100) { count requests { request_id unread } }\n    open: requests(project_id: $project, limit: 100) { count requests { request_id unread } }\n    closed: requests(project_id: $project, status: \"1000\", limit: 1) { count requests { request_id unread } }\n  }\n": typeof types.ConsoleInboxCountsDocument,
    "\n  subscription ConsoleProjectEvents($project: String!, $after: Int) {\n    projectEvents(project_id: $project, after: $after) { seq name subject }\n  }\n": typeof types.ConsoleProjectEventsDocument,
    "\n  query ConsoleMyInvitations {\n    myInvitations { _id id_project project_name role createdAt }\n  }\n": typeof types.ConsoleMyInvitationsDocument,
    "\n  mutation ConsoleAcceptInvitation($id: String!) {\n    acceptInvitation(invitation_id: $id) { _id id_project role }\n  }\n": typeof types.ConsoleAcceptInvitationDocument,
    "\n  mutation ConsoleDeclineInvitation($id: String!) {\n    declineInvitation(invitation_id: $id) { _id }\n  }\n": typeof types.ConsoleDeclineInvitationDocument,
    "\n  mutation ConsoleSignupWithInvitation($id: String!, $token: String!, $password: String!, $firstname: String, $lastname: String) {\n    signupWithInvitation(invitation_id: $id, token: $token, password: $password, firstname: $firstname, lastname: $lastname) {\n      token user { _id email fullName }\n    }\n  }\n": typeof types.ConsoleSignupWithInvitationDocument,
    "\n  mutation ConsoleVerifyEmail($token: String!) {\n    verifyEmail(token: $token) { token user { _id email fullName emailverified } }\n  }\n": typeof types.ConsoleVerifyEmailDocument,
    "\n  mutation ConsoleRequestPasswordReset($email: String!) {\n    requestPasswordReset(email: $email) { success }\n  }\n": typeof types.ConsoleRequestPasswordResetDocument,
    "\n  mutation ConsoleResetPassword($token: String!, $password: String!) {\n    resetPassword(token: $token, password: $password) { token user { _id email fullName } }\n  }\n": typeof types.ConsoleResetPasswordDocument,
    "\n  subscription ConsoleRequestEvents($project: String!, $after: Int) {\n    projectRequests(project_id: $project, after: $after) { seq name request_id }\n  }\n": typeof types.ConsoleRequestEventsDocument,
    "\n  query ConsoleConversation($project: String!, $request: String!) {\n    request(project_id: $project, request_id: $request) {\n      _id request_id ticket_id status priority first_text participatingAgents participatingBots hasBot tags merged_into\n      rating rating_message closed_at createdAt sourcePage\n      sla { policy { name } firstResponseDueAt nextResponseDueAt resolutionDueAt met breached }\n      agents { _id id_user { _id fullName email } }\n      department { _id name }\n      lead { _id fullname email }\n      notes { _id text createdAt }\n    }\n    messages(project_id: $project, request_id: $request) {\n      _id sender senderFullname text type metadata attributes createdAt status receipts hidden sentByBot\n    }\n    requestTimeline(project_id: $project, request_id: $request) { seq name at text }\n  }\n": typeof types.ConsoleConversationDocument,
    "\n  subscription ConsoleMessageEvents($project: String!, $request: String!, $after: Int) {\n    requestMessages(project_id: $project, request_id: $request, after: $after) {\n      seq\n      message { _id sender senderFullname text type metadata attributes createdAt status receipts hidden sentByBot }\n    }\n  }\n": typeof types.ConsoleMessageEventsDocument,
    "\n  mutation ConsoleReply($project: String!, $request: String!, $text: String!, $attributes: JSON, $type: String, $metadata: JSON) {\n    sendMessage(project_id: $project, request_id: $request, text: $text, attributes: $attributes, type: $type, metadata: $metadata) {\n      _id sender senderFullname text type metadata attributes createdAt status receipts hidden sentByBot\n    }\n  }\n": typeof types.ConsoleReplyDocument,
    "\n  mutation ConsoleTake($project: String!, $request: String!) {\n    takeRequest(project_id: $project, request_id: $request) { request_id status participatingAgents }\n  }\n": typeof types.ConsoleTakeDocument,
    "\n  mutation ConsoleClose($project: String!, $request: String!) {\n    closeRequest(project_id: $project, request_id: $request) { request_id status }\n  }\n": typeof types.ConsoleCloseDocument,
    "\n  mutation ConsoleReopen($project: String!, $request: String!) {\n    reopenRequest(project_id: $project, request_id: $request) { request_id status }\n  }\n": typeof types.ConsoleReopenDocument,
    "\n  mutation ConsoleAddNote($project: String!, $request: String!, $text: String!) {\n    addRequestNote(project_id: $project, request_id: $request, text: $text) { request_id notes { _id text createdAt } }\n  }\n": typeof types.ConsoleAddNoteDocument,
    "\n  mutation ConsoleRemoveTag($project: String!, $request: String!, $tag: String!) {\n    removeRequestTag(project_id: $project, request_id: $request, tag: $tag) { request_id tags }\n  }\n": typeof types.ConsoleRemoveTagDocument,
    "\n  mutation ConsoleAddTag($project: String!, $request: String!, $tag: JSON!) {\n    addRequestTags(project_id: $project, request_id: $request, tag: $tag) { request_id tags }\n  }\n": typeof types.ConsoleAddTagDocument,
    "\n  query ConsoleCanned($project: String!) {\n    cannedResponses(project_id: $project, limit: 100) { _id title text }\n  }\n": typeof types.ConsoleCannedDocument,
    "\n  query ConsoleRenderCanned($project: String!, $id: String!, $request: String!) {\n    renderCannedResponse(project_id: $project, id: $id, request_id: $request) { text }\n  }\n": typeof types.ConsoleRenderCannedDocument,
    "\n  query ConsoleTeam($project: String!) {\n    teammates(project_id: $project) { _id role user_available presence { status } id_user { _id fullName email } }\n  }\n": typeof types.ConsoleTeamDocument,
    "\n  subscription ConsolePresence($project: String!, $after: Int) {\n    teammatePresence(project_id: $project, after: $after) { seq status teammate { _id user_available } }\n  }\n": typeof types.ConsolePresenceDocument,
    "\n  mutation ConsoleSetAvailable($project: String!, $available: Boolean!) {\n    updateMyTeammate(project_id: $project, user_available: $available) { _id user_available }\n  }\n": typeof types.ConsoleSetAvailableDocument,
    "\n  query ConsoleAssignTargets($project: String!) {\n    departments(project_id: $project) { _id name id_bot }\n    teammates(project_id: $project) { _id role id_user { _id fullName email } }\n  }\n": typeof types.ConsoleAssignTargetsDocument,
    "\n  mutation ConsoleRoute($project: String!, $request: String!, $department: String!) {\n    routeRequest(project_id: $project, request_id: $request, departmentid: $department) { request_id status }\n  }\n": typeof types.ConsoleRouteDocument,
    "\n  mutation ConsoleAssign($project: String!, $request: String!, $participants: [String!]!) {\n    setRequestParticipants(project_id: $project, request_id: $request, participants: $participants) { request_id status participatingAgents }\n  }\n": typeof types.ConsoleAssignDocument,
    "\n  query ConsoleReports($project: String!) {\n    analyticsRequestCount(project_id: $project) { count }\n    analyticsBotRequestCount(project_id: $project) { count }\n    analyticsRequestsByDay(project_id: $project) { date count }\n    analyticsMessagesByDay(project_id: $project) { date count }\n    analyticsRequestsByHourOfWeek(project_id: $project) { weekday hour count }\n    analyticsWaitingTime(project_id: $project) { average count }\n    analyticsRequestDuration(project_id: $project) { average median count }\n    analyticsSatisfaction(project_id: $project) { average count }\n    analyticsSatisfactionDistribution(project_id: $project) { rating count }\n    analyticsFirstResponseByAgent(project_id: $project) { id_user fullname average median count }\n  }\n": typeof types.ConsoleReportsDocument,
    "\n  mutation ConsoleMarkSeen($project: String!, $request: String!) {\n    markRequestSeen(project_id: $project, request_id: $request) { request_id unread }\n  }\n": typeof types.ConsoleMarkSeenDocument,
    "\n  query ConsoleContact($project: String!, $request: String!) {\n    request(project_id: $project, request_id: $request) {\n      request_id sourcePage userAgent location device\n      browser { name version }\n      os { name version }\n      lead { _id fullname email phone company attributes }\n    }\n  }\n": typeof types.ConsoleContactDocument,
    "\n  query ConsoleLeadConversations($project: String!, $lead: String!) {\n    requests(project_id: $project, lead: $lead, status: \"all\", sortField: \"createdAt\", limit: 20) {\n      count\n      requests { request_id ticket_id first_text status createdAt merged_into }\n    }\n  }\n": typeof types.ConsoleLeadConversationsDocument,
    "\n  mutation ConsoleUpdateLead($project: String!, $id: String!, $fullname: String, $email: String, $phone: String) {\n    updateLead(project_id: $project, id: $id, fullname: $fullname, email: $email, phone: $phone) { _id fullname email phone }\n  }\n": typeof types.ConsoleUpdateLeadDocument,
    "\n  query ConsoleLeadExport($project: String!, $id: String!) {\n    leadExport(project_id: $project, id: $id)\n  }\n": typeof types.ConsoleLeadExportDocument,
    "\n  mutation ConsoleEraseLead($project: String!, $id: String!) {\n    deleteLead(project_id: $project, id: $id, erase: true) { _id fullname email }\n  }\n": typeof types.ConsoleEraseLeadDocument,
    "\n  query ConsoleProjectRetention($project: String!) {\n    project(project_id: $project) { _id retention_days }\n  }\n": typeof types.ConsoleProjectRetentionDocument,
    "\n  mutation ConsoleUpdateRetention($project: String!, $days: Int!) {\n    updateProject(project_id: $project, retention_days: $days) { _id retention_days }\n  }\n": typeof types.ConsoleUpdateRetentionDocument,
    "\n  query ConsoleSearch($project: String!, $q: String!) {\n    search(project_id: $project, q: $q, limit: 8) {\n      requests { request_id ticket_id first_text lead { fullname email } }\n      messages { _id text recipient senderFullname createdAt }\n      leads { _id fullname email }\n    }\n  }\n": typeof types.ConsoleSearchDocument,
    "\n  query ConsoleFilterTargets($project: String!) {\n    departments(project_id: $project) { _id name }\n    teammates(project_id: $project) { _id role id_user { _id fullName email } }\n  }\n": typeof types.ConsoleFilterTargetsDocument,
    "\n  mutation ConsoleSignOut {\n    signOut { success }\n  }\n": typeof types.ConsoleSignOutDocument,
    "\n  mutation ConsoleSetPriority($project: String!, $request: String!, $priority: String!) {\n    updateRequest(project_id: $project, request_id: $request, priority: $priority) { _id priority }\n  }\n": typeof types.ConsoleSetPriorityDocument,
    "\n  query ConsoleSlaPolicies($project: String!) {\n    slaPolicies(project_id: $project) { _id name departments priorities first_response_seconds next_response_seconds resolution_seconds }\n    departments(project_id: $project) { _id name }\n  }\n": typeof types.ConsoleSlaPoliciesDocument,
    "\n  mutation ConsoleCreateSlaPolicy($project: String!, $name: String, $departments: [String!], $priorities: [String!], $first: JSON, $next: JSON, $resolution: JSON) {\n    createSlaPolicy(project_id: $project, name: $name, departments: $departments, priorities: $priorities, first_response: $first, next_response: $next, resolution: $resolution) { _id }\n  }\n": typeof types.ConsoleCreateSlaPolicyDocument,
    "\n  mutation ConsoleUpdateSlaPolicy($project: String!, $id: String!, $name: String, $departments: [String!], $priorities: [String!], $first: JSON, $next: JSON, $resolution: JSON) {\n    updateSlaPolicy(project_id: $project, id: $id, name: $name, departments: $departments, priorities: $priorities, first_response: $first, next_response: $next, resolution: $resolution) { _id }\n  }\n": typeof types.ConsoleUpdateSlaPolicyDocument,
    "\n  mutation ConsoleDeleteSlaPolicy($project: String!, $id: String!) {\n    deleteSlaPolicy(project_id: $project, id: $id) { _id }\n  }\n": typeof types.ConsoleDeleteSlaPolicyDocument,
    "\n  query ConsoleSlaReport($project: String!, $from: String, $to: String) {\n    analyticsSla(project_id: $project, from: $from, to: $to) {\n      total\n      byTarget { target breaches }\n      byDepartment { department_id name breaches }\n      byAgent { id_user fullname breaches }\n      byWeek { week breaches }\n    }\n  }\n": typeof types.ConsoleSlaReportDocument,
    "\n  query FileLimits {\n    fileLimits { maxBytes allowedTypes }\n  }\n": typeof types.FileLimitsDocument,
    "\n  subscription KbAnswerStream($project: String!, $namespace: String!, $question: String!, $topK: Int, $temperature: Float) {\n    kbAnswerStream(project_id: $project, namespace: $namespace, question: $question, top_k: $topK, temperature: $temperature) {\n      delta done\n      result { success answer id ids sources error_message }\n    }\n  }\n": typeof types.KbAnswerStreamDocument,
    "\n  subscription KbAnswerDrafts($project: String!, $request: String!) {\n    kbAnswerDrafts(project_id: $project, request_id: $request) { draft_id sender text done }\n  }\n": typeof types.KbAnswerDraftsDocument,
    "\n  mutation KbFeedback($project: String!, $namespace: String, $question: String!, $id: String!, $helpful: Boolean!) {\n    kbFeedback(project_id: $project, namespace: $namespace, question: $question, id: $id, helpful: $helpful) { __typename }\n  }\n": typeof types.KbFeedbackDocument,
    "\n  mutation KbRateAnswer($project: String!, $request: String!, $message: String!, $helpful: Boolean!) {\n    kbRateAnswer(project_id: $project, request_id: $request, message_id: $message, helpful: $helpful) { __typename }\n  }\n": typeof types.KbRateAnswerDocument,
    "\n  mutation AcknowledgeMessage($project: String!, $request: String!, $message: String!, $status: Int!) {\n    acknowledgeMessage(project_id: $project, request_id: $request, message_id: $message, status: $status) { _id status }\n  }\n": typeof types.AcknowledgeMessageDocument,
    "\n  mutation SendTyping($project: String!, $request: String!, $typing: Boolean!) {\n    sendTyping(project_id: $project, request_id: $request, typing: $typing) { at }\n  }\n": typeof types.SendTypingDocument,
    "\n  subscription TypingEvents($project: String!, $request: String!) {\n    typing(project_id: $project, request_id: $request) { user_id fullname typing at }\n  }\n": typeof types.TypingEventsDocument,
    "\n  mutation WidgetSignin($project: String!, $name: String) {\n    signinAnonymously(id_project: $project, firstname: $name) {\n      token\n      user { _id fullName email }\n    }\n  }\n": typeof types.WidgetSigninDocument,
    "\n  query WidgetSettings($project: String!) {\n    widgetSettings(project_id: $project) { name isopen available_agents }\n  }\n": typeof types.WidgetSettingsDocument,
    "\n  query WidgetMessages($project: String!, $request: String!) {\n    messages(project_id: $project, request_id: $request) {\n      _id sender senderFullname text type metadata attributes createdAt status receipts hidden sentByBot\n    }\n  }\n": typeof types.WidgetMessagesDocument,
    "\n  mutation WidgetSend($project: String!, $request: String!, $text: String!, $attributes: JSON, $sourcePage: String, $userAgent: String, $type: String, $metadata: JSON) {\n    sendMessage(project_id: $project, request_id: $request, text: $text, attributes: $attributes, sourcePage: $sourcePage, userAgent: $userAgent, type: $type, metadata: $metadata) {\n      _id sender senderFullname text type metadata attributes createdAt status receipts hidden sentByBot\n    }\n  }\n": typeof types.WidgetSendDocument,
    "\n  subscription WidgetMessageEvents($project: String!, $request: String!, $after: Int) {\n    requestMessages(project_id: $project, request_id: $request, after: $after) {\n      seq\n      name\n      message { _id sender senderFullname text type metadata attributes createdAt status receipts hidden sentByBot }\n    }\n  }\n": typeof types.WidgetMessageEventsDocument,
    "\n  query WidgetRequestStatus($project: String!, $request: String!) {\n    request(project_id: $project, request_id: $request) { request_id status merged_into }\n  }\n": typeof types.WidgetRequestStatusDocument,
    "\n  mutation WidgetRate($project: String!, $request: String!, $rate: Float!, $message: String) {\n    rateRequest(project_id: $project, request_id: $request, rate: $rate, rate_message: $message) { request_id rating }\n  }\n": typeof types.WidgetRateDocument,
};
const documents: Documents = {
    "\n  query ConsoleAudit($project: String!, $action: [String!], $actor: String, $actorKind: String, $from: String, $to: String, $page: Int, $limit: Int) {\n    audit(project_id: $project, action: $action, actor: $actor, actorKind: $actorKind, from: $from, to: $to, page: $page, limit: $limit) {\n      _id action target targetType address before after details createdAt\n      actor { kind id name }\n    }\n    auditCount(project_id: $project, action: $action, actor: $actor, actorKind: $actorKind, from: $from, to: $to)\n  }\n": types.ConsoleAuditDocument,
    "\n  mutation ConsoleMergeRequests($project: String!, $request: String!, $from: [String!]!) {\n    mergeRequests(project_id: $project, request_id: $request, from: $from) { request_id }\n  }\n": types.ConsoleMergeRequestsDocument,
    "\n  query ConsoleMergedTarget($project: String!, $request: String!) {\n    request(project_id: $project, request_id: $request) { request_id ticket_id first_text lead { fullname } }\n  }\n": types.ConsoleMergedTargetDocument,
    "\n  query ConsoleReportConversations($project: String!, $status: String, $start: String, $end: String, $assignee: String, $dept: String, $tags: String, $rating: Float, $active: String, $page: Int) {\n    requests(project_id: $project, status: $status, start_date: $start, end_date: $end, assignee: $assignee, dept_id: $dept, tags: $tags, rating: $rating, active_date: $active, sortField: \"createdAt\", direction: 1, page: $page, limit: 50) {\n      count\n      perPage\n      requests {\n        request_id ticket_id status first_text createdAt merged_into\n        lead { fullname email }\n        department { name }\n        agents { id_user { fullName email } }\n      }\n    }\n  }\n": types.ConsoleReportConversationsDocument,
    "\n  query ConsoleScheduledMessages($project: String!, $request: String!) {\n    scheduledMessages(project_id: $project, request_id: $request) { _id text scheduled_at status reason }\n  }\n": types.ConsoleScheduledMessagesDocument,
    "\n  mutation ConsoleScheduleMessage($project: String!, $request: String!, $text: String!, $at: String!) {\n    scheduleMessage(project_id: $project, request_id: $request, text: $text, scheduled_at: $at) { _id }\n  }\n": types.ConsoleScheduleMessageDocument,
    "\n  mutation ConsoleEditScheduled($project: String!, $request: String!, $id: String!, $text: String, $at: String) {\n    updateScheduledMessage(project_id: $project, request_id: $request, id: $id, text: $text, scheduled_at: $at) { _id }\n  }\n": types.ConsoleEditScheduledDocument,
    "\n  mutation ConsoleCancelScheduled($project: String!, $request: String!, $id: String!) {\n    cancelScheduledMessage(project_id: $project, request_id: $request, id: $id) { _id }\n  }\n": types.ConsoleCancelScheduledDocument,
    "\n  query ConsoleSuggestions($project: String!, $request: String!) {\n    requestSuggestions(project_id: $project, request_id: $request) {\n      question language sentiment\n      replies { text source ref score }\n      tags { tag score }\n    }\n  }\n": types.ConsoleSuggestionsDocument,
    "\n  query ConsoleSummary($project: String!, $request: String!) {\n    requestSummary(project_id: $project, request_id: $request) { summary method by createdAt }\n  }\n": types.ConsoleSummaryDocument,
    "\n  mutation ConsoleSummarize($project: String!, $request: String!) {\n    summarizeRequest(project_id: $project, request_id: $request) { summary method by createdAt }\n  }\n": types.ConsoleSummarizeDocument,
    "\n  query ConsoleKbProposals($project: String!) {\n    kbProposals(project_id: $project, limit: 20) { _id question answer count examples namespace }\n  }\n": types.ConsoleKbProposalsDocument,
    "\n  mutation ConsoleAcceptKbProposal($project: String!, $id: String!, $question: String, $answer: String) {\n    acceptKbProposal(project_id: $project, proposal_id: $id, question: $question, answer: $answer) { _id status content_id }\n  }\n": types.ConsoleAcceptKbProposalDocument,
    "\n  mutation ConsoleUpdateKbProposal($project: String!, $id: String!, $question: String, $answer: String) {\n    updateKbProposal(project_id: $project, proposal_id: $id, question: $question, answer: $answer) { _id question answer }\n  }\n": types.ConsoleUpdateKbProposalDocument,
    "\n  mutation ConsoleDismissKbProposal($project: String!, $id: String!) {\n    dismissKbProposal(project_id: $project, proposal_id: $id) { _id status }\n  }\n": types.ConsoleDismissKbProposalDocument,
    "\n  query ConsoleKbTests($project: String!, $namespace: String) {\n    kbTests(project_id: $project, namespace: $namespace) {\n      namespace\n      tests { id question expected }\n      last_run { id trigger total passed pass_rate createdAt failures { question expected found { id name } } }\n    }\n  }\n": types.ConsoleKbTestsDocument,
    "\n  mutation ConsoleSaveKbTests($project: String!, $namespace: String, $tests: JSON) {\n    saveKbTests(project_id: $project, namespace: $namespace, tests: $tests) { namespace }\n  }\n": types.ConsoleSaveKbTestsDocument,
    "\n  mutation ConsoleRunKbTests($project: String!, $namespace: String) {\n    runKbTests(project_id: $project, namespace: $namespace) { id }\n  }\n": types.ConsoleRunKbTestsDocument,
    "\n  query ManageTeam($project: String!) {\n    teammates(project_id: $project) { _id role user_available id_user { _id fullName email } }\n  }\n": types.ManageTeamDocument,
    "\n  query ManageInvitations($project: String!) {\n    invitations(project_id: $project) { _id email role createdAt }\n  }\n": types.ManageInvitationsDocument,
    "\n  mutation ManageInvite($project: String!, $email: String!, $role: String!) {\n    inviteTeammate(project_id: $project, email: $email, role: $role) { success pending }\n  }\n": types.ManageInviteDocument,
    "\n  query ManageDepartments($project: String!) {\n    departments(project_id: $project) { _id name default routing id_bot id_group status }\n    groups(project_id: $project) { _id name members }\n    bots(project_id: $project) { _id name }\n  }\n": types.ManageDepartmentsDocument,
    "\n  mutation ManageCreateDepartment($project: String!, $name: String!, $routing: String, $bot: String) {\n    createDepartment(project_id: $project, name: $name, routing: $routing, id_bot: $bot) { _id }\n  }\n": types.ManageCreateDepartmentDocument,
    "\n  mutation ManageSetDepartmentBot($project: String!, $id: String!, $bot: String) {\n    updateDepartment(project_id: $project, id: $id, id_bot: $bot) { _id id_bot }\n  }\n": types.ManageSetDepartmentBotDocument,
    "\n  mutation ManageCreateGroup($project: String!, $name: String!, $members: [String!]) {\n    createGroup(project_id: $project, name: $name, members: $members) { _id }\n  }\n": types.ManageCreateGroupDocument,
    "\n  query ManageBots($project: String!) {\n    bots(project_id: $project) { _id name type kb_namespace }\n    intents(project_id: $project, limit: 0) { _id id_faq_kb intent_display_name question answer }\n  }\n": types.ManageBotsDocument,
    "\n  mutation ManageCreateBot($project: String!, $name: String!, $template: String) {\n    createBot(project_id: $project, name: $name, template: $template) { _id }\n  }\n": types.ManageCreateBotDocument,
    "\n  mutation ManageCreateIntent($project: String!, $bot: String!, $question: String!, $answer: String!) {\n    createIntent(project_id: $project, id_faq_kb: $bot, question: $question, answer: $answer) { _id }\n  }\n": types.ManageCreateIntentDocument,
    "\n  query ManageKbs($project: String!) {\n    kbNamespaces(project_id: $project) { _id name default preview_settings { model top_k temperature max_tokens } }\n  }\n": types.ManageKbsDocument,
    "\n  query ManageKbContents($project: String!, $namespace: String!) {\n    kbContents(project_id: $project, namespace: $namespace, limit: 100) { count kbs { _id name type source status error updatedAt } }\n  }\n": types.ManageKbContentsDocument,
    "\n  subscription ManageKbIndexing($project: String!, $namespace: String!, $after: Int) {\n    kbIndexing(project_id: $project, namespace: $namespace, after: $after) { seq content_id status error }\n  }\n": types.ManageKbIndexingDocument,
    "\n  mutation ManageCreateKb($project: String!, $name: String!) {\n    createKbNamespace(project_id: $project, name: $name) { _id }\n  }\n": types.ManageCreateKbDocument,
    "\n  mutation ManageAddKbContent($project: String!, $namespace: String!, $name: String!, $type: String!, $source: String, $content: String) {\n    createKbContent(project_id: $project, namespace: $namespace, name: $name, type: $type, source: $source, content: $content) { value { _id status } }\n  }\n": types.ManageAddKbContentDocument,
    "\n  mutation ManageReadSitemap($project: String!, $sitemap: String!) {\n    readKbSitemap(project_id: $project, sitemap: $sitemap) { sites errors { url message } }\n  }\n": types.ManageReadSitemapDocument,
    "\n  mutation ManageAddKbPages($project: String!, $namespace: String!, $list: [String!]!) {\n    createKbContents(project_id: $project, namespace: $namespace, list: $list) { _id }\n  }\n": types.ManageAddKbPagesDocument,
    "\n  mutation ManageDeleteKbContent($project: String!, $id: String!) {\n    deleteKbContent(project_id: $project, content_id: $id) { _id }\n  }\n": types.ManageDeleteKbContentDocument,
    "\n  query ManageWebhooks($project: String!) {\n    webhookSubscriptions(project_id: $project) { _id event target enabled disabledReason disabledAt }\n  }\n": types.ManageWebhooksDocument,
    "\n  query ManageWebhookDeliveries($project: String!, $id: String!) {\n    webhookDeliveries(project_id: $project, id: $id, limit: 20) {\n      count\n      deliveries { _id event status createdAt nextAttemptAt attempts { at attempt error reason redelivery statusCode durationMs } }\n    }\n  }\n": types.ManageWebhookDeliveriesDocument,
    "\n  mutation ManageCreateWebhook($project: String!, $event: String!, $target: String!) {\n    createWebhookSubscription(project_id: $project, event: $event, target: $target) { _id signingSecret }\n  }\n": types.ManageCreateWebhookDocument,
    "\n  mutation ManageRedeliver($project: String!, $id: String!, $delivery: String!) {\n    redeliverWebhook(project_id: $project, id: $id, delivery_id: $delivery) { _id status attempts { at statusCode error redelivery } }\n  }\n": types.ManageRedeliverDocument,
    "\n  mutation ManageRemoveTeammate($project: String!, $id: String!) {\n    removeTeammate(project_id: $project, project_user_id: $id) { _id }\n  }\n": types.ManageRemoveTeammateDocument,
    "\n  mutation ManageChangeRole($project: String!, $id: String!, $role: String!) {\n    updateTeammate(project_id: $project, project_user_id: $id, role: $role) { _id role }\n  }\n": types.ManageChangeRoleDocument,
    "\n  mutation ManageRevokeInvitation($project: String!, $id: String!) {\n    revokeInvitation(project_id: $project, invitation_id: $id) { _id }\n  }\n": types.ManageRevokeInvitationDocument,
    "\n  mutation ManageCreateCanned($project: String!, $title: String!, $text: String!) {\n    createCannedResponse(project_id: $project, title: $title, text: $text) { _id }\n  }\n": types.ManageCreateCannedDocument,
    "\n  mutation ManageEnableWebhook($project: String!, $id: String!) {\n    enableWebhookSubscription(project_id: $project, id: $id) { _id enabled }\n  }\n": types.ManageEnableWebhookDocument,
    "\n  subscription ConsoleEventPayloads($project: String!, $after: Int) {\n    projectEvents(project_id: $project, after: $after) { seq name subject payload }\n  }\n": types.ConsoleEventPayloadsDocument,
    "\n  mutation ConsoleSignin($email: String!, $password: String!) {\n    signin(email: $email, password: $password) { token user { _id email fullName } }\n  }\n": types.ConsoleSigninDocument,
    "\n  mutation ConsoleSignup($email: String!, $password: String!, $firstname: String, $lastname: String) {\n    signup(email: $email, password: $password, firstname: $firstname, lastname: $lastname) { token user { _id email fullName } }\n  }\n": types.ConsoleSignupDocument,
    "\n  query ConsoleProjects {\n    projects { _id role user_available id_project { _id name } }\n  }\n": types.ConsoleProjectsDocument,
    "\n  mutation ConsoleCreateProject($name: String!) {\n    createProject(name: $name) { _id name }\n  }\n": types.ConsoleCreateProjectDocument,
    "\n  query ConsoleInbox($project: String!, $status: String, $assignee: String, $sortField: String, $direction: Int, $dept: String, $tags: String, $channel: String, $priority: [String!]) {\n    requests(project_id: $project, status: $status, assignee: $assignee, sortField: $sortField, direction: $direction, dept_id: $dept, tags: $tags, channel: $channel, priority: $priority, limit: 100) {\n      count\n      requests { _id request_id ticket_id status priority first_text createdAt updatedAt hasBot participatingAgents tags unread lead { _id fullname email } sla { firstResponseDueAt nextResponseDueAt resolutionDueAt met breached } }\n    }\n  }\n": types.ConsoleInboxDocument,
    "\n  query ConsoleInboxCounts($project: String!) {\n    mine: requests(project_id: $project, assignee: \"me\", limit: 100) { count requests { request_id unread } }\n    unassigned: requests(project_id: $project, status: \"100\", limit: 100) { count requests { request_id unread } }\n    open: requests(project_id: $project, limit: 100) { count requests { request_id unread } }\n    closed: requests(project_id: $project, status: \"1000\", limit: 1) { count requests { request_id unread } }\n  }\n": types.ConsoleInboxCountsDocument,
    "\n  subscription ConsoleProjectEvents($project: String!, $after: Int) {\n    projectEvents(project_id: $project, after: $after) { seq name subject }\n  }\n": types.ConsoleProjectEventsDocument,
    "\n  query ConsoleMyInvitations {\n    myInvitations { _id id_project project_name role createdAt }\n  }\n": types.ConsoleMyInvitationsDocument,
    "\n  mutation ConsoleAcceptInvitation($id: String!) {\n    acceptInvitation(invitation_id: $id) { _id id_project role }\n  }\n": types.ConsoleAcceptInvitationDocument,
    "\n  mutation ConsoleDeclineInvitation($id: String!) {\n    declineInvitation(invitation_id: $id) { _id }\n  }\n": types.ConsoleDeclineInvitationDocument,
    "\n  mutation ConsoleSignupWithInvitation($id: String!, $token: String!, $password: String!, $firstname: String, $lastname: String) {\n    signupWithInvitation(invitation_id: $id, token: $token, password: $password, firstname: $firstname, lastname: $lastname) {\n      token user { _id email fullName }\n    }\n  }\n": types.ConsoleSignupWithInvitationDocument,
    "\n  mutation ConsoleVerifyEmail($token: String!) {\n    verifyEmail(token: $token) { token user { _id email fullName emailverified } }\n  }\n": types.ConsoleVerifyEmailDocument,
    "\n  mutation ConsoleRequestPasswordReset($email: String!) {\n    requestPasswordReset(email: $email) { success }\n  }\n": types.ConsoleRequestPasswordResetDocument,
    "\n  mutation ConsoleResetPassword($token: String!, $password: String!) {\n    resetPassword(token: $token, password: $password) { token user { _id email fullName } }\n  }\n": types.ConsoleResetPasswordDocument,
    "\n  subscription ConsoleRequestEvents($project: String!, $after: Int) {\n    projectRequests(project_id: $project, after: $after) { seq name request_id }\n  }\n": types.ConsoleRequestEventsDocument,
    "\n  query ConsoleConversation($project: String!, $request: String!) {\n    request(project_id: $project, request_id: $request) {\n      _id request_id ticket_id status priority first_text participatingAgents participatingBots hasBot tags merged_into\n      rating rating_message closed_at createdAt sourcePage\n      sla { policy { name } firstResponseDueAt nextResponseDueAt resolutionDueAt met breached }\n      agents { _id id_user { _id fullName email } }\n      department { _id name }\n      lead { _id fullname email }\n      notes { _id text createdAt }\n    }\n    messages(project_id: $project, request_id: $request) {\n      _id sender senderFullname text type metadata attributes createdAt status receipts hidden sentByBot\n    }\n    requestTimeline(project_id: $project, request_id: $request) { seq name at text }\n  }\n": types.ConsoleConversationDocument,
    "\n  subscription ConsoleMessageEvents($project: String!, $request: String!, $after: Int) {\n    requestMessages(project_id: $project, request_id: $request, after: $after) {\n      seq\n      message { _id sender senderFullname text type metadata attributes createdAt status receipts hidden sentByBot }\n    }\n  }\n": types.ConsoleMessageEventsDocument,
    "\n  mutation ConsoleReply($project: String!, $request: String!, $text: String!, $attributes: JSON, $type: String, $metadata: JSON) {\n    sendMessage(project_id: $project, request_id: $request, text: $text, attributes: $attributes, type: $type, metadata: $metadata) {\n      _id sender senderFullname text type metadata attributes createdAt status receipts hidden sentByBot\n    }\n  }\n": types.ConsoleReplyDocument,
    "\n  mutation ConsoleTake($project: String!, $request: String!) {\n    takeRequest(project_id: $project, request_id: $request) { request_id status participatingAgents }\n  }\n": types.ConsoleTakeDocument,
    "\n  mutation ConsoleClose($project: String!, $request: String!) {\n    closeRequest(project_id: $project, request_id: $request) { request_id status }\n  }\n": types.ConsoleCloseDocument,
    "\n  mutation ConsoleReopen($project: String!, $request: String!) {\n    reopenRequest(project_id: $project, request_id: $request) { request_id status }\n  }\n": types.ConsoleReopenDocument,
    "\n  mutation ConsoleAddNote($project: String!, $request: String!, $text: String!) {\n    addRequestNote(project_id: $project, request_id: $request, text: $text) { request_id notes { _id text createdAt } }\n  }\n": types.ConsoleAddNoteDocument,
    "\n  mutation ConsoleRemoveTag($project: String!, $request: String!, $tag: String!) {\n    removeRequestTag(project_id: $project, request_id: $request, tag: $tag) { request_id tags }\n  }\n": types.ConsoleRemoveTagDocument,
    "\n  mutation ConsoleAddTag($project: String!, $request: String!, $tag: JSON!) {\n    addRequestTags(project_id: $project, request_id: $request, tag: $tag) { request_id tags }\n  }\n": types.ConsoleAddTagDocument,
    "\n  query ConsoleCanned($project: String!) {\n    cannedResponses(project_id: $project, limit: 100) { _id title text }\n  }\n": types.ConsoleCannedDocument,
    "\n  query ConsoleRenderCanned($project: String!, $id: String!, $request: String!) {\n    renderCannedResponse(project_id: $project, id: $id, request_id: $request) { text }\n  }\n": types.ConsoleRenderCannedDocument,
    "\n  query ConsoleTeam($project: String!) {\n    teammates(project_id: $project) { _id role user_available presence { status } id_user { _id fullName email } }\n  }\n": types.ConsoleTeamDocument,
    "\n  subscription ConsolePresence($project: String!, $after: Int) {\n    teammatePresence(project_id: $project, after: $after) { seq status teammate { _id user_available } }\n  }\n": types.ConsolePresenceDocument,
    "\n  mutation ConsoleSetAvailable($project: String!, $available: Boolean!) {\n    updateMyTeammate(project_id: $project, user_available: $available) { _id user_available }\n  }\n": types.ConsoleSetAvailableDocument,
    "\n  query ConsoleAssignTargets($project: String!) {\n    departments(project_id: $project) { _id name id_bot }\n    teammates(project_id: $project) { _id role id_user { _id fullName email } }\n  }\n": types.ConsoleAssignTargetsDocument,
    "\n  mutation ConsoleRoute($project: String!, $request: String!, $department: String!) {\n    routeRequest(project_id: $project, request_id: $request, departmentid: $department) { request_id status }\n  }\n": types.ConsoleRouteDocument,
    "\n  mutation ConsoleAssign($project: String!, $request: String!, $participants: [String!]!) {\n    setRequestParticipants(project_id: $project, request_id: $request, participants: $participants) { request_id status participatingAgents }\n  }\n": types.ConsoleAssignDocument,
    "\n  query ConsoleReports($project: String!) {\n    analyticsRequestCount(project_id: $project) { count }\n    analyticsBotRequestCount(project_id: $project) { count }\n    analyticsRequestsByDay(project_id: $project) { date count }\n    analyticsMessagesByDay(project_id: $project) { date count }\n    analyticsRequestsByHourOfWeek(project_id: $project) { weekday hour count }\n    analyticsWaitingTime(project_id: $project) { average count }\n    analyticsRequestDuration(project_id: $project) { average median count }\n    analyticsSatisfaction(project_id: $project) { average count }\n    analyticsSatisfactionDistribution(project_id: $project) { rating count }\n    analyticsFirstResponseByAgent(project_id: $project) { id_user fullname average median count }\n  }\n": types.ConsoleReportsDocument,
    "\n  mutation ConsoleMarkSeen($project: String!, $request: String!) {\n    markRequestSeen(project_id: $project, request_id: $request) { request_id unread }\n  }\n": types.ConsoleMarkSeenDocument,
    "\n  query ConsoleContact($project: String!, $request: String!) {\n    request(project_id: $project, request_id: $request) {\n      request_id sourcePage userAgent location device\n      browser { name version }\n      os { name version }\n      lead { _id fullname email phone company attributes }\n    }\n  }\n": types.ConsoleContactDocument,
    "\n  query ConsoleLeadConversations($project: String!, $lead: String!) {\n    requests(project_id: $project, lead: $lead, status: \"all\", sortField: \"createdAt\", limit: 20) {\n      count\n      requests { request_id ticket_id first_text status createdAt merged_into }\n    }\n  }\n": types.ConsoleLeadConversationsDocument,
    "\n  mutation ConsoleUpdateLead($project: String!, $id: String!, $fullname: String, $email: String, $phone: String) {\n    updateLead(project_id: $project, id: $id, fullname: $fullname, email: $email, phone: $phone) { _id fullname email phone }\n  }\n": types.ConsoleUpdateLeadDocument,
    "\n  query ConsoleLeadExport($project: String!, $id: String!) {\n    leadExport(project_id: $project, id: $id)\n  }\n": types.ConsoleLeadExportDocument,
    "\n  mutation ConsoleEraseLead($project: String!, $id: String!) {\n    deleteLead(project_id: $project, id: $id, erase: true) { _id fullname email }\n  }\n": types.ConsoleEraseLeadDocument,
    "\n  query ConsoleProjectRetention($project: String!) {\n    project(project_id: $project) { _id retention_days }\n  }\n": types.ConsoleProjectRetentionDocument,
    "\n  mutation ConsoleUpdateRetention($project: String!, $days: Int!) {\n    updateProject(project_id: $project, retention_days: $days) { _id retention_days }\n  }\n": types.ConsoleUpdateRetentionDocument,
    "\n  query ConsoleSearch($project: String!, $q: String!) {\n    search(project_id: $project, q: $q, limit: 8) {\n      requests { request_id ticket_id first_text lead { fullname email } }\n      messages { _id text recipient senderFullname createdAt }\n      leads { _id fullname email }\n    }\n  }\n": types.ConsoleSearchDocument,
    "\n  query ConsoleFilterTargets($project: String!) {\n    departments(project_id: $project) { _id name }\n    teammates(project_id: $project) { _id role id_user { _id fullName email } }\n  }\n": types.ConsoleFilterTargetsDocument,
    "\n  mutation ConsoleSignOut {\n    signOut { success }\n  }\n": types.ConsoleSignOutDocument,
    "\n  mutation ConsoleSetPriority($project: String!, $request: String!, $priority: String!) {\n    updateRequest(project_id: $project, request_id: $request, priority: $priority) { _id priority }\n  }\n": types.ConsoleSetPriorityDocument,
    "\n  query ConsoleSlaPolicies($project: String!) {\n    slaPolicies(project_id: $project) { _id name departments priorities first_response_seconds next_response_seconds resolution_seconds }\n    departments(project_id: $project) { _id name }\n  }\n": types.ConsoleSlaPoliciesDocument,
    "\n  mutation ConsoleCreateSlaPolicy($project: String!, $name: String, $departments: [String!], $priorities: [String!], $first: JSON, $next: JSON, $resolution: JSON) {\n    createSlaPolicy(project_id: $project, name: $name, departments: $departments, priorities: $priorities, first_response: $first, next_response: $next, resolution: $resolution) { _id }\n  }\n": types.ConsoleCreateSlaPolicyDocument,
    "\n  mutation ConsoleUpdateSlaPolicy($project: String!, $id: String!, $name: String, $departments: [String!], $priorities: [String!], $first: JSON, $next: JSON, $resolution: JSON) {\n    updateSlaPolicy(project_id: $project, id: $id, name: $name, departments: $departments, priorities: $priorities, first_response: $first, next_response: $next, resolution: $resolution) { _id }\n  }\n": types.ConsoleUpdateSlaPolicyDocument,
    "\n  mutation ConsoleDeleteSlaPolicy($project: String!, $id: String!) {\n    deleteSlaPolicy(project_id: $project, id: $id) { _id }\n  }\n": types.ConsoleDeleteSlaPolicyDocument,
    "\n  query ConsoleSlaReport($project: String!, $from: String, $to: String) {\n    analyticsSla(project_id: $project, from: $from, to: $to) {\n      total\n      byTarget { target breaches }\n      byDepartment { department_id name breaches }\n      byAgent { id_user fullname breaches }\n      byWeek { week breaches }\n    }\n  }\n": types.ConsoleSlaReportDocument,
    "\n  query FileLimits {\n    fileLimits { maxBytes allowedTypes }\n  }\n": types.FileLimitsDocument,
    "\n  subscription KbAnswerStream($project: String!, $namespace: String!, $question: String!, $topK: Int, $temperature: Float) {\n    kbAnswerStream(project_id: $project, namespace: $namespace, question: $question, top_k: $topK, temperature: $temperature) {\n      delta done\n      result { success answer id ids sources error_message }\n    }\n  }\n": types.KbAnswerStreamDocument,
    "\n  subscription KbAnswerDrafts($project: String!, $request: String!) {\n    kbAnswerDrafts(project_id: $project, request_id: $request) { draft_id sender text done }\n  }\n": types.KbAnswerDraftsDocument,
    "\n  mutation KbFeedback($project: String!, $namespace: String, $question: String!, $id: String!, $helpful: Boolean!) {\n    kbFeedback(project_id: $project, namespace: $namespace, question: $question, id: $id, helpful: $helpful) { __typename }\n  }\n": types.KbFeedbackDocument,
    "\n  mutation KbRateAnswer($project: String!, $request: String!, $message: String!, $helpful: Boolean!) {\n    kbRateAnswer(project_id: $project, request_id: $request, message_id: $message, helpful: $helpful) { __typename }\n  }\n": types.KbRateAnswerDocument,
    "\n  mutation AcknowledgeMessage($project: String!, $request: String!, $message: String!, $status: Int!) {\n    acknowledgeMessage(project_id: $project, request_id: $request, message_id: $message, status: $status) { _id status }\n  }\n": types.AcknowledgeMessageDocument,
    "\n  mutation SendTyping($project: String!, $request: String!, $typing: Boolean!) {\n    sendTyping(project_id: $project, request_id: $request, typing: $typing) { at }\n  }\n": types.SendTypingDocument,
    "\n  subscription TypingEvents($project: String!, $request: String!) {\n    typing(project_id: $project, request_id: $request) { user_id fullname typing at }\n  }\n": types.TypingEventsDocument,
    "\n  mutation WidgetSignin($project: String!, $name: String) {\n    signinAnonymously(id_project: $project, firstname: $name) {\n      token\n      user { _id fullName email }\n    }\n  }\n": types.WidgetSigninDocument,
    "\n  query WidgetSettings($project: String!) {\n    widgetSettings(project_id: $project) { name isopen available_agents }\n  }\n": types.WidgetSettingsDocument,
    "\n  query WidgetMessages($project: String!, $request: String!) {\n    messages(project_id: $project, request_id: $request) {\n      _id sender senderFullname text type metadata attributes createdAt status receipts hidden sentByBot\n    }\n  }\n": types.WidgetMessagesDocument,
    "\n  mutation WidgetSend($project: String!, $request: String!, $text: String!, $attributes: JSON, $sourcePage: String, $userAgent: String, $type: String, $metadata: JSON) {\n    sendMessage(project_id: $project, request_id: $request, text: $text, attributes: $attributes, sourcePage: $sourcePage, userAgent: $userAgent, type: $type, metadata: $metadata) {\n      _id sender senderFullname text type metadata attributes createdAt status receipts hidden sentByBot\n    }\n  }\n": types.WidgetSendDocument,
    "\n  subscription WidgetMessageEvents($project: String!, $request: String!, $after: Int) {\n    requestMessages(project_id: $project, request_id: $request, after: $after) {\n      seq\n      name\n      message { _id sender senderFullname text type metadata attributes createdAt status receipts hidden sentByBot }\n    }\n  }\n": types.WidgetMessageEventsDocument,
    "\n  query WidgetRequestStatus($project: String!, $request: String!) {\n    request(project_id: $project, request_id: $request) { request_id status merged_into }\n  }\n": types.WidgetRequestStatusDocument,
    "\n  mutation WidgetRate($project: String!, $request: String!, $rate: Float!, $message: String) {\n    rateRequest(project_id: $project, request_id: $request, rate: $rate, rate_message: $message) { request_id rating }\n  }\n": types.WidgetRateDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleAudit($project: String!, $action: [String!], $actor: String, $actorKind: String, $from: String, $to: String, $page: Int, $limit: Int) {\n    audit(project_id: $project, action: $action, actor: $actor, actorKind: $actorKind, from: $from, to: $to, page: $page, limit: $limit) {\n      _id action target targetType address before after details createdAt\n      actor { kind id name }\n    }\n    auditCount(project_id: $project, action: $action, actor: $actor, actorKind: $actorKind, from: $from, to: $to)\n  }\n"): typeof import('./graphql.js').ConsoleAuditDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleMergeRequests($project: String!, $request: String!, $from: [String!]!) {\n    mergeRequests(project_id: $project, request_id: $request, from: $from) { request_id }\n  }\n"): typeof import('./graphql.js').ConsoleMergeRequestsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleMergedTarget($project: String!, $request: String!) {\n    request(project_id: $project, request_id: $request) { request_id ticket_id first_text lead { fullname } }\n  }\n"): typeof import('./graphql.js').ConsoleMergedTargetDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleReportConversations($project: String!, $status: String, $start: String, $end: String, $assignee: String, $dept: String, $tags: String, $rating: Float, $active: String, $page: Int) {\n    requests(project_id: $project, status: $status, start_date: $start, end_date: $end, assignee: $assignee, dept_id: $dept, tags: $tags, rating: $rating, active_date: $active, sortField: \"createdAt\", direction: 1, page: $page, limit: 50) {\n      count\n      perPage\n      requests {\n        request_id ticket_id status first_text createdAt merged_into\n        lead { fullname email }\n        department { name }\n        agents { id_user { fullName email } }\n      }\n    }\n  }\n"): typeof import('./graphql.js').ConsoleReportConversationsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleScheduledMessages($project: String!, $request: String!) {\n    scheduledMessages(project_id: $project, request_id: $request) { _id text scheduled_at status reason }\n  }\n"): typeof import('./graphql.js').ConsoleScheduledMessagesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleScheduleMessage($project: String!, $request: String!, $text: String!, $at: String!) {\n    scheduleMessage(project_id: $project, request_id: $request, text: $text, scheduled_at: $at) { _id }\n  }\n"): typeof import('./graphql.js').ConsoleScheduleMessageDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleEditScheduled($project: String!, $request: String!, $id: String!, $text: String, $at: String) {\n    updateScheduledMessage(project_id: $project, request_id: $request, id: $id, text: $text, scheduled_at: $at) { _id }\n  }\n"): typeof import('./graphql.js').ConsoleEditScheduledDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleCancelScheduled($project: String!, $request: String!, $id: String!) {\n    cancelScheduledMessage(project_id: $project, request_id: $request, id: $id) { _id }\n  }\n"): typeof import('./graphql.js').ConsoleCancelScheduledDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleSuggestions($project: String!, $request: String!) {\n    requestSuggestions(project_id: $project, request_id: $request) {\n      question language sentiment\n      replies { text source ref score }\n      tags { tag score }\n    }\n  }\n"): typeof import('./graphql.js').ConsoleSuggestionsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleSummary($project: String!, $request: String!) {\n    requestSummary(project_id: $project, request_id: $request) { summary method by createdAt }\n  }\n"): typeof import('./graphql.js').ConsoleSummaryDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleSummarize($project: String!, $request: String!) {\n    summarizeRequest(project_id: $project, request_id: $request) { summary method by createdAt }\n  }\n"): typeof import('./graphql.js').ConsoleSummarizeDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleKbProposals($project: String!) {\n    kbProposals(project_id: $project, limit: 20) { _id question answer count examples namespace }\n  }\n"): typeof import('./graphql.js').ConsoleKbProposalsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleAcceptKbProposal($project: String!, $id: String!, $question: String, $answer: String) {\n    acceptKbProposal(project_id: $project, proposal_id: $id, question: $question, answer: $answer) { _id status content_id }\n  }\n"): typeof import('./graphql.js').ConsoleAcceptKbProposalDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleUpdateKbProposal($project: String!, $id: String!, $question: String, $answer: String) {\n    updateKbProposal(project_id: $project, proposal_id: $id, question: $question, answer: $answer) { _id question answer }\n  }\n"): typeof import('./graphql.js').ConsoleUpdateKbProposalDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleDismissKbProposal($project: String!, $id: String!) {\n    dismissKbProposal(project_id: $project, proposal_id: $id) { _id status }\n  }\n"): typeof import('./graphql.js').ConsoleDismissKbProposalDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleKbTests($project: String!, $namespace: String) {\n    kbTests(project_id: $project, namespace: $namespace) {\n      namespace\n      tests { id question expected }\n      last_run { id trigger total passed pass_rate createdAt failures { question expected found { id name } } }\n    }\n  }\n"): typeof import('./graphql.js').ConsoleKbTestsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleSaveKbTests($project: String!, $namespace: String, $tests: JSON) {\n    saveKbTests(project_id: $project, namespace: $namespace, tests: $tests) { namespace }\n  }\n"): typeof import('./graphql.js').ConsoleSaveKbTestsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleRunKbTests($project: String!, $namespace: String) {\n    runKbTests(project_id: $project, namespace: $namespace) { id }\n  }\n"): typeof import('./graphql.js').ConsoleRunKbTestsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ManageTeam($project: String!) {\n    teammates(project_id: $project) { _id role user_available id_user { _id fullName email } }\n  }\n"): typeof import('./graphql.js').ManageTeamDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ManageInvitations($project: String!) {\n    invitations(project_id: $project) { _id email role createdAt }\n  }\n"): typeof import('./graphql.js').ManageInvitationsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ManageInvite($project: String!, $email: String!, $role: String!) {\n    inviteTeammate(project_id: $project, email: $email, role: $role) { success pending }\n  }\n"): typeof import('./graphql.js').ManageInviteDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ManageDepartments($project: String!) {\n    departments(project_id: $project) { _id name default routing id_bot id_group status }\n    groups(project_id: $project) { _id name members }\n    bots(project_id: $project) { _id name }\n  }\n"): typeof import('./graphql.js').ManageDepartmentsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ManageCreateDepartment($project: String!, $name: String!, $routing: String, $bot: String) {\n    createDepartment(project_id: $project, name: $name, routing: $routing, id_bot: $bot) { _id }\n  }\n"): typeof import('./graphql.js').ManageCreateDepartmentDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ManageSetDepartmentBot($project: String!, $id: String!, $bot: String) {\n    updateDepartment(project_id: $project, id: $id, id_bot: $bot) { _id id_bot }\n  }\n"): typeof import('./graphql.js').ManageSetDepartmentBotDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ManageCreateGroup($project: String!, $name: String!, $members: [String!]) {\n    createGroup(project_id: $project, name: $name, members: $members) { _id }\n  }\n"): typeof import('./graphql.js').ManageCreateGroupDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ManageBots($project: String!) {\n    bots(project_id: $project) { _id name type kb_namespace }\n    intents(project_id: $project, limit: 0) { _id id_faq_kb intent_display_name question answer }\n  }\n"): typeof import('./graphql.js').ManageBotsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ManageCreateBot($project: String!, $name: String!, $template: String) {\n    createBot(project_id: $project, name: $name, template: $template) { _id }\n  }\n"): typeof import('./graphql.js').ManageCreateBotDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ManageCreateIntent($project: String!, $bot: String!, $question: String!, $answer: String!) {\n    createIntent(project_id: $project, id_faq_kb: $bot, question: $question, answer: $answer) { _id }\n  }\n"): typeof import('./graphql.js').ManageCreateIntentDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ManageKbs($project: String!) {\n    kbNamespaces(project_id: $project) { _id name default preview_settings { model top_k temperature max_tokens } }\n  }\n"): typeof import('./graphql.js').ManageKbsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ManageKbContents($project: String!, $namespace: String!) {\n    kbContents(project_id: $project, namespace: $namespace, limit: 100) { count kbs { _id name type source status error updatedAt } }\n  }\n"): typeof import('./graphql.js').ManageKbContentsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription ManageKbIndexing($project: String!, $namespace: String!, $after: Int) {\n    kbIndexing(project_id: $project, namespace: $namespace, after: $after) { seq content_id status error }\n  }\n"): typeof import('./graphql.js').ManageKbIndexingDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ManageCreateKb($project: String!, $name: String!) {\n    createKbNamespace(project_id: $project, name: $name) { _id }\n  }\n"): typeof import('./graphql.js').ManageCreateKbDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ManageAddKbContent($project: String!, $namespace: String!, $name: String!, $type: String!, $source: String, $content: String) {\n    createKbContent(project_id: $project, namespace: $namespace, name: $name, type: $type, source: $source, content: $content) { value { _id status } }\n  }\n"): typeof import('./graphql.js').ManageAddKbContentDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ManageReadSitemap($project: String!, $sitemap: String!) {\n    readKbSitemap(project_id: $project, sitemap: $sitemap) { sites errors { url message } }\n  }\n"): typeof import('./graphql.js').ManageReadSitemapDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ManageAddKbPages($project: String!, $namespace: String!, $list: [String!]!) {\n    createKbContents(project_id: $project, namespace: $namespace, list: $list) { _id }\n  }\n"): typeof import('./graphql.js').ManageAddKbPagesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ManageDeleteKbContent($project: String!, $id: String!) {\n    deleteKbContent(project_id: $project, content_id: $id) { _id }\n  }\n"): typeof import('./graphql.js').ManageDeleteKbContentDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ManageWebhooks($project: String!) {\n    webhookSubscriptions(project_id: $project) { _id event target enabled disabledReason disabledAt }\n  }\n"): typeof import('./graphql.js').ManageWebhooksDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ManageWebhookDeliveries($project: String!, $id: String!) {\n    webhookDeliveries(project_id: $project, id: $id, limit: 20) {\n      count\n      deliveries { _id event status createdAt nextAttemptAt attempts { at attempt error reason redelivery statusCode durationMs } }\n    }\n  }\n"): typeof import('./graphql.js').ManageWebhookDeliveriesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ManageCreateWebhook($project: String!, $event: String!, $target: String!) {\n    createWebhookSubscription(project_id: $project, event: $event, target: $target) { _id signingSecret }\n  }\n"): typeof import('./graphql.js').ManageCreateWebhookDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ManageRedeliver($project: String!, $id: String!, $delivery: String!) {\n    redeliverWebhook(project_id: $project, id: $id, delivery_id: $delivery) { _id status attempts { at statusCode error redelivery } }\n  }\n"): typeof import('./graphql.js').ManageRedeliverDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ManageRemoveTeammate($project: String!, $id: String!) {\n    removeTeammate(project_id: $project, project_user_id: $id) { _id }\n  }\n"): typeof import('./graphql.js').ManageRemoveTeammateDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ManageChangeRole($project: String!, $id: String!, $role: String!) {\n    updateTeammate(project_id: $project, project_user_id: $id, role: $role) { _id role }\n  }\n"): typeof import('./graphql.js').ManageChangeRoleDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ManageRevokeInvitation($project: String!, $id: String!) {\n    revokeInvitation(project_id: $project, invitation_id: $id) { _id }\n  }\n"): typeof import('./graphql.js').ManageRevokeInvitationDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ManageCreateCanned($project: String!, $title: String!, $text: String!) {\n    createCannedResponse(project_id: $project, title: $title, text: $text) { _id }\n  }\n"): typeof import('./graphql.js').ManageCreateCannedDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ManageEnableWebhook($project: String!, $id: String!) {\n    enableWebhookSubscription(project_id: $project, id: $id) { _id enabled }\n  }\n"): typeof import('./graphql.js').ManageEnableWebhookDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription ConsoleEventPayloads($project: String!, $after: Int) {\n    projectEvents(project_id: $project, after: $after) { seq name subject payload }\n  }\n"): typeof import('./graphql.js').ConsoleEventPayloadsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleSignin($email: String!, $password: String!) {\n    signin(email: $email, password: $password) { token user { _id email fullName } }\n  }\n"): typeof import('./graphql.js').ConsoleSigninDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleSignup($email: String!, $password: String!, $firstname: String, $lastname: String) {\n    signup(email: $email, password: $password, firstname: $firstname, lastname: $lastname) { token user { _id email fullName } }\n  }\n"): typeof import('./graphql.js').ConsoleSignupDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleProjects {\n    projects { _id role user_available id_project { _id name } }\n  }\n"): typeof import('./graphql.js').ConsoleProjectsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleCreateProject($name: String!) {\n    createProject(name: $name) { _id name }\n  }\n"): typeof import('./graphql.js').ConsoleCreateProjectDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleInbox($project: String!, $status: String, $assignee: String, $sortField: String, $direction: Int, $dept: String, $tags: String, $channel: String, $priority: [String!]) {\n    requests(project_id: $project, status: $status, assignee: $assignee, sortField: $sortField, direction: $direction, dept_id: $dept, tags: $tags, channel: $channel, priority: $priority, limit: 100) {\n      count\n      requests { _id request_id ticket_id status priority first_text createdAt updatedAt hasBot participatingAgents tags unread lead { _id fullname email } sla { firstResponseDueAt nextResponseDueAt resolutionDueAt met breached } }\n    }\n  }\n"): typeof import('./graphql.js').ConsoleInboxDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleInboxCounts($project: String!) {\n    mine: requests(project_id: $project, assignee: \"me\", limit: 100) { count requests { request_id unread } }\n    unassigned: requests(project_id: $project, status: \"100\", limit: 100) { count requests { request_id unread } }\n    open: requests(project_id: $project, limit: 100) { count requests { request_id unread } }\n    closed: requests(project_id: $project, status: \"1000\", limit: 1) { count requests { request_id unread } }\n  }\n"): typeof import('./graphql.js').ConsoleInboxCountsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription ConsoleProjectEvents($project: String!, $after: Int) {\n    projectEvents(project_id: $project, after: $after) { seq name subject }\n  }\n"): typeof import('./graphql.js').ConsoleProjectEventsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleMyInvitations {\n    myInvitations { _id id_project project_name role createdAt }\n  }\n"): typeof import('./graphql.js').ConsoleMyInvitationsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleAcceptInvitation($id: String!) {\n    acceptInvitation(invitation_id: $id) { _id id_project role }\n  }\n"): typeof import('./graphql.js').ConsoleAcceptInvitationDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleDeclineInvitation($id: String!) {\n    declineInvitation(invitation_id: $id) { _id }\n  }\n"): typeof import('./graphql.js').ConsoleDeclineInvitationDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleSignupWithInvitation($id: String!, $token: String!, $password: String!, $firstname: String, $lastname: String) {\n    signupWithInvitation(invitation_id: $id, token: $token, password: $password, firstname: $firstname, lastname: $lastname) {\n      token user { _id email fullName }\n    }\n  }\n"): typeof import('./graphql.js').ConsoleSignupWithInvitationDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleVerifyEmail($token: String!) {\n    verifyEmail(token: $token) { token user { _id email fullName emailverified } }\n  }\n"): typeof import('./graphql.js').ConsoleVerifyEmailDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleRequestPasswordReset($email: String!) {\n    requestPasswordReset(email: $email) { success }\n  }\n"): typeof import('./graphql.js').ConsoleRequestPasswordResetDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleResetPassword($token: String!, $password: String!) {\n    resetPassword(token: $token, password: $password) { token user { _id email fullName } }\n  }\n"): typeof import('./graphql.js').ConsoleResetPasswordDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription ConsoleRequestEvents($project: String!, $after: Int) {\n    projectRequests(project_id: $project, after: $after) { seq name request_id }\n  }\n"): typeof import('./graphql.js').ConsoleRequestEventsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleConversation($project: String!, $request: String!) {\n    request(project_id: $project, request_id: $request) {\n      _id request_id ticket_id status priority first_text participatingAgents participatingBots hasBot tags merged_into\n      rating rating_message closed_at createdAt sourcePage\n      sla { policy { name } firstResponseDueAt nextResponseDueAt resolutionDueAt met breached }\n      agents { _id id_user { _id fullName email } }\n      department { _id name }\n      lead { _id fullname email }\n      notes { _id text createdAt }\n    }\n    messages(project_id: $project, request_id: $request) {\n      _id sender senderFullname text type metadata attributes createdAt status receipts hidden sentByBot\n    }\n    requestTimeline(project_id: $project, request_id: $request) { seq name at text }\n  }\n"): typeof import('./graphql.js').ConsoleConversationDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription ConsoleMessageEvents($project: String!, $request: String!, $after: Int) {\n    requestMessages(project_id: $project, request_id: $request, after: $after) {\n      seq\n      message { _id sender senderFullname text type metadata attributes createdAt status receipts hidden sentByBot }\n    }\n  }\n"): typeof import('./graphql.js').ConsoleMessageEventsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleReply($project: String!, $request: String!, $text: String!, $attributes: JSON, $type: String, $metadata: JSON) {\n    sendMessage(project_id: $project, request_id: $request, text: $text, attributes: $attributes, type: $type, metadata: $metadata) {\n      _id sender senderFullname text type metadata attributes createdAt status receipts hidden sentByBot\n    }\n  }\n"): typeof import('./graphql.js').ConsoleReplyDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleTake($project: String!, $request: String!) {\n    takeRequest(project_id: $project, request_id: $request) { request_id status participatingAgents }\n  }\n"): typeof import('./graphql.js').ConsoleTakeDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleClose($project: String!, $request: String!) {\n    closeRequest(project_id: $project, request_id: $request) { request_id status }\n  }\n"): typeof import('./graphql.js').ConsoleCloseDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleReopen($project: String!, $request: String!) {\n    reopenRequest(project_id: $project, request_id: $request) { request_id status }\n  }\n"): typeof import('./graphql.js').ConsoleReopenDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleAddNote($project: String!, $request: String!, $text: String!) {\n    addRequestNote(project_id: $project, request_id: $request, text: $text) { request_id notes { _id text createdAt } }\n  }\n"): typeof import('./graphql.js').ConsoleAddNoteDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleRemoveTag($project: String!, $request: String!, $tag: String!) {\n    removeRequestTag(project_id: $project, request_id: $request, tag: $tag) { request_id tags }\n  }\n"): typeof import('./graphql.js').ConsoleRemoveTagDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleAddTag($project: String!, $request: String!, $tag: JSON!) {\n    addRequestTags(project_id: $project, request_id: $request, tag: $tag) { request_id tags }\n  }\n"): typeof import('./graphql.js').ConsoleAddTagDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleCanned($project: String!) {\n    cannedResponses(project_id: $project, limit: 100) { _id title text }\n  }\n"): typeof import('./graphql.js').ConsoleCannedDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleRenderCanned($project: String!, $id: String!, $request: String!) {\n    renderCannedResponse(project_id: $project, id: $id, request_id: $request) { text }\n  }\n"): typeof import('./graphql.js').ConsoleRenderCannedDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleTeam($project: String!) {\n    teammates(project_id: $project) { _id role user_available presence { status } id_user { _id fullName email } }\n  }\n"): typeof import('./graphql.js').ConsoleTeamDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription ConsolePresence($project: String!, $after: Int) {\n    teammatePresence(project_id: $project, after: $after) { seq status teammate { _id user_available } }\n  }\n"): typeof import('./graphql.js').ConsolePresenceDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleSetAvailable($project: String!, $available: Boolean!) {\n    updateMyTeammate(project_id: $project, user_available: $available) { _id user_available }\n  }\n"): typeof import('./graphql.js').ConsoleSetAvailableDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleAssignTargets($project: String!) {\n    departments(project_id: $project) { _id name id_bot }\n    teammates(project_id: $project) { _id role id_user { _id fullName email } }\n  }\n"): typeof import('./graphql.js').ConsoleAssignTargetsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleRoute($project: String!, $request: String!, $department: String!) {\n    routeRequest(project_id: $project, request_id: $request, departmentid: $department) { request_id status }\n  }\n"): typeof import('./graphql.js').ConsoleRouteDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleAssign($project: String!, $request: String!, $participants: [String!]!) {\n    setRequestParticipants(project_id: $project, request_id: $request, participants: $participants) { request_id status participatingAgents }\n  }\n"): typeof import('./graphql.js').ConsoleAssignDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleReports($project: String!) {\n    analyticsRequestCount(project_id: $project) { count }\n    analyticsBotRequestCount(project_id: $project) { count }\n    analyticsRequestsByDay(project_id: $project) { date count }\n    analyticsMessagesByDay(project_id: $project) { date count }\n    analyticsRequestsByHourOfWeek(project_id: $project) { weekday hour count }\n    analyticsWaitingTime(project_id: $project) { average count }\n    analyticsRequestDuration(project_id: $project) { average median count }\n    analyticsSatisfaction(project_id: $project) { average count }\n    analyticsSatisfactionDistribution(project_id: $project) { rating count }\n    analyticsFirstResponseByAgent(project_id: $project) { id_user fullname average median count }\n  }\n"): typeof import('./graphql.js').ConsoleReportsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleMarkSeen($project: String!, $request: String!) {\n    markRequestSeen(project_id: $project, request_id: $request) { request_id unread }\n  }\n"): typeof import('./graphql.js').ConsoleMarkSeenDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleContact($project: String!, $request: String!) {\n    request(project_id: $project, request_id: $request) {\n      request_id sourcePage userAgent location device\n      browser { name version }\n      os { name version }\n      lead { _id fullname email phone company attributes }\n    }\n  }\n"): typeof import('./graphql.js').ConsoleContactDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleLeadConversations($project: String!, $lead: String!) {\n    requests(project_id: $project, lead: $lead, status: \"all\", sortField: \"createdAt\", limit: 20) {\n      count\n      requests { request_id ticket_id first_text status createdAt merged_into }\n    }\n  }\n"): typeof import('./graphql.js').ConsoleLeadConversationsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleUpdateLead($project: String!, $id: String!, $fullname: String, $email: String, $phone: String) {\n    updateLead(project_id: $project, id: $id, fullname: $fullname, email: $email, phone: $phone) { _id fullname email phone }\n  }\n"): typeof import('./graphql.js').ConsoleUpdateLeadDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleLeadExport($project: String!, $id: String!) {\n    leadExport(project_id: $project, id: $id)\n  }\n"): typeof import('./graphql.js').ConsoleLeadExportDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleEraseLead($project: String!, $id: String!) {\n    deleteLead(project_id: $project, id: $id, erase: true) { _id fullname email }\n  }\n"): typeof import('./graphql.js').ConsoleEraseLeadDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleProjectRetention($project: String!) {\n    project(project_id: $project) { _id retention_days }\n  }\n"): typeof import('./graphql.js').ConsoleProjectRetentionDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleUpdateRetention($project: String!, $days: Int!) {\n    updateProject(project_id: $project, retention_days: $days) { _id retention_days }\n  }\n"): typeof import('./graphql.js').ConsoleUpdateRetentionDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleSearch($project: String!, $q: String!) {\n    search(project_id: $project, q: $q, limit: 8) {\n      requests { request_id ticket_id first_text lead { fullname email } }\n      messages { _id text recipient senderFullname createdAt }\n      leads { _id fullname email }\n    }\n  }\n"): typeof import('./graphql.js').ConsoleSearchDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleFilterTargets($project: String!) {\n    departments(project_id: $project) { _id name }\n    teammates(project_id: $project) { _id role id_user { _id fullName email } }\n  }\n"): typeof import('./graphql.js').ConsoleFilterTargetsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleSignOut {\n    signOut { success }\n  }\n"): typeof import('./graphql.js').ConsoleSignOutDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleSetPriority($project: String!, $request: String!, $priority: String!) {\n    updateRequest(project_id: $project, request_id: $request, priority: $priority) { _id priority }\n  }\n"): typeof import('./graphql.js').ConsoleSetPriorityDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleSlaPolicies($project: String!) {\n    slaPolicies(project_id: $project) { _id name departments priorities first_response_seconds next_response_seconds resolution_seconds }\n    departments(project_id: $project) { _id name }\n  }\n"): typeof import('./graphql.js').ConsoleSlaPoliciesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleCreateSlaPolicy($project: String!, $name: String, $departments: [String!], $priorities: [String!], $first: JSON, $next: JSON, $resolution: JSON) {\n    createSlaPolicy(project_id: $project, name: $name, departments: $departments, priorities: $priorities, first_response: $first, next_response: $next, resolution: $resolution) { _id }\n  }\n"): typeof import('./graphql.js').ConsoleCreateSlaPolicyDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleUpdateSlaPolicy($project: String!, $id: String!, $name: String, $departments: [String!], $priorities: [String!], $first: JSON, $next: JSON, $resolution: JSON) {\n    updateSlaPolicy(project_id: $project, id: $id, name: $name, departments: $departments, priorities: $priorities, first_response: $first, next_response: $next, resolution: $resolution) { _id }\n  }\n"): typeof import('./graphql.js').ConsoleUpdateSlaPolicyDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleDeleteSlaPolicy($project: String!, $id: String!) {\n    deleteSlaPolicy(project_id: $project, id: $id) { _id }\n  }\n"): typeof import('./graphql.js').ConsoleDeleteSlaPolicyDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleSlaReport($project: String!, $from: String, $to: String) {\n    analyticsSla(project_id: $project, from: $from, to: $to) {\n      total\n      byTarget { target breaches }\n      byDepartment { department_id name breaches }\n      byAgent { id_user fullname breaches }\n      byWeek { week breaches }\n    }\n  }\n"): typeof import('./graphql.js').ConsoleSlaReportDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query FileLimits {\n    fileLimits { maxBytes allowedTypes }\n  }\n"): typeof import('./graphql.js').FileLimitsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription KbAnswerStream($project: String!, $namespace: String!, $question: String!, $topK: Int, $temperature: Float) {\n    kbAnswerStream(project_id: $project, namespace: $namespace, question: $question, top_k: $topK, temperature: $temperature) {\n      delta done\n      result { success answer id ids sources error_message }\n    }\n  }\n"): typeof import('./graphql.js').KbAnswerStreamDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription KbAnswerDrafts($project: String!, $request: String!) {\n    kbAnswerDrafts(project_id: $project, request_id: $request) { draft_id sender text done }\n  }\n"): typeof import('./graphql.js').KbAnswerDraftsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation KbFeedback($project: String!, $namespace: String, $question: String!, $id: String!, $helpful: Boolean!) {\n    kbFeedback(project_id: $project, namespace: $namespace, question: $question, id: $id, helpful: $helpful) { __typename }\n  }\n"): typeof import('./graphql.js').KbFeedbackDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation KbRateAnswer($project: String!, $request: String!, $message: String!, $helpful: Boolean!) {\n    kbRateAnswer(project_id: $project, request_id: $request, message_id: $message, helpful: $helpful) { __typename }\n  }\n"): typeof import('./graphql.js').KbRateAnswerDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation AcknowledgeMessage($project: String!, $request: String!, $message: String!, $status: Int!) {\n    acknowledgeMessage(project_id: $project, request_id: $request, message_id: $message, status: $status) { _id status }\n  }\n"): typeof import('./graphql.js').AcknowledgeMessageDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SendTyping($project: String!, $request: String!, $typing: Boolean!) {\n    sendTyping(project_id: $project, request_id: $request, typing: $typing) { at }\n  }\n"): typeof import('./graphql.js').SendTypingDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription TypingEvents($project: String!, $request: String!) {\n    typing(project_id: $project, request_id: $request) { user_id fullname typing at }\n  }\n"): typeof import('./graphql.js').TypingEventsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation WidgetSignin($project: String!, $name: String) {\n    signinAnonymously(id_project: $project, firstname: $name) {\n      token\n      user { _id fullName email }\n    }\n  }\n"): typeof import('./graphql.js').WidgetSigninDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query WidgetSettings($project: String!) {\n    widgetSettings(project_id: $project) { name isopen available_agents }\n  }\n"): typeof import('./graphql.js').WidgetSettingsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query WidgetMessages($project: String!, $request: String!) {\n    messages(project_id: $project, request_id: $request) {\n      _id sender senderFullname text type metadata attributes createdAt status receipts hidden sentByBot\n    }\n  }\n"): typeof import('./graphql.js').WidgetMessagesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation WidgetSend($project: String!, $request: String!, $text: String!, $attributes: JSON, $sourcePage: String, $userAgent: String, $type: String, $metadata: JSON) {\n    sendMessage(project_id: $project, request_id: $request, text: $text, attributes: $attributes, sourcePage: $sourcePage, userAgent: $userAgent, type: $type, metadata: $metadata) {\n      _id sender senderFullname text type metadata attributes createdAt status receipts hidden sentByBot\n    }\n  }\n"): typeof import('./graphql.js').WidgetSendDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription WidgetMessageEvents($project: String!, $request: String!, $after: Int) {\n    requestMessages(project_id: $project, request_id: $request, after: $after) {\n      seq\n      name\n      message { _id sender senderFullname text type metadata attributes createdAt status receipts hidden sentByBot }\n    }\n  }\n"): typeof import('./graphql.js').WidgetMessageEventsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query WidgetRequestStatus($project: String!, $request: String!) {\n    request(project_id: $project, request_id: $request) { request_id status merged_into }\n  }\n"): typeof import('./graphql.js').WidgetRequestStatusDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation WidgetRate($project: String!, $request: String!, $rate: Float!, $message: String) {\n    rateRequest(project_id: $project, request_id: $request, rate: $rate, rate_message: $message) { request_id rating }\n  }\n"): typeof import('./graphql.js').WidgetRateDocument;


export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}
