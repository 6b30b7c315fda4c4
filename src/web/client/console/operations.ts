import { graphql } from '../gql/index.js';

export const Signin = graphql(`
  mutation ConsoleSignin($email: String!, $password: String!) {
    signin(email: $email, password: $password) { token user { _id email fullName } }
  }
`);

export const Signup = graphql(`
  mutation ConsoleSignup($email: String!, $password: String!, $firstname: String, $lastname: String) {
    signup(email: $email, password: $password, firstname: $firstname, lastname: $lastname) { token user { _id email fullName } }
  }
`);

export const Projects = graphql(`
  query ConsoleProjects {
    projects { _id role user_available id_project { _id name } }
  }
`);

export const CreateProject = graphql(`
  mutation ConsoleCreateProject($name: String!) {
    createProject(name: $name) { _id name }
  }
`);


export const Inbox = graphql(`
  query ConsoleInbox($project: String!, $status: String, $assignee: String, $sortField: String, $direction: Int, $dept: String, $tags: String, $channel: String, $priority: [String!]) {
    requests(project_id: $project, status: $status, assignee: $assignee, sortField: $sortField, direction: $direction, dept_id: $dept, tags: $tags, channel: $channel, priority: $priority, limit: 100) {
      count
      requests { _id request_id ticket_id status priority first_text createdAt updatedAt hasBot participatingAgents tags unread lead { _id fullname email } sla { firstResponseDueAt nextResponseDueAt resolutionDueAt met breached } }
    }
  }
`);

export const InboxCounts = graphql(`
  query ConsoleInboxCounts($project: String!) {
    mine: requests(project_id: $project, assignee: "me", limit: 100) { count requests { request_id unread } }
    unassigned: requests(project_id: $project, status: "100", limit: 100) { count requests { request_id unread } }
    open: requests(project_id: $project, limit: 100) { count requests { request_id unread } }
    closed: requests(project_id: $project, status: "1000", limit: 1) { count requests { request_id unread } }
  }
`);

export const ProjectEvents = graphql(`
  subscription ConsoleProjectEvents($project: String!, $after: Int) {
    projectEvents(project_id: $project, after: $after) { seq name subject }
  }
`);

export const MyInvitations = graphql(`
  query ConsoleMyInvitations {
    myInvitations { _id id_project project_name role createdAt }
  }
`);

export const AcceptInvitation = graphql(`
  mutation ConsoleAcceptInvitation($id: String!) {
    acceptInvitation(invitation_id: $id) { _id id_project role }
  }
`);

export const DeclineInvitation = graphql(`
  mutation ConsoleDeclineInvitation($id: String!) {
    declineInvitation(invitation_id: $id) { _id }
  }
`);

export const SignupWithInvitation = graphql(`
  mutation ConsoleSignupWithInvitation($id: String!, $token: String!, $password: String!, $firstname: String, $lastname: String) {
    signupWithInvitation(invitation_id: $id, token: $token, password: $password, firstname: $firstname, lastname: $lastname) {
      token user { _id email fullName }
    }
  }
`);

export const VerifyEmail = graphql(`
  mutation ConsoleVerifyEmail($token: String!) {
    verifyEmail(token: $token) { token user { _id email fullName emailverified } }
  }
`);

export const RequestPasswordReset = graphql(`
  mutation ConsoleRequestPasswordReset($email: String!) {
    requestPasswordReset(email: $email) { success }
  }
`);

export const ResetPassword = graphql(`
  mutation ConsoleResetPassword($token: String!, $password: String!) {
    resetPassword(token: $token, password: $password) { token user { _id email fullName } }
  }
`);

export const RequestEvents = graphql(`
  subscription ConsoleRequestEvents($project: String!, $after: Int) {
    projectRequests(project_id: $project, after: $after) { seq name request_id }
  }
`);

export const Conversation = graphql(`
  query ConsoleConversation($project: String!, $request: String!) {
    request(project_id: $project, request_id: $request) {
      _id request_id ticket_id status priority first_text participatingAgents participatingBots hasBot tags merged_into
      rating rating_message closed_at createdAt sourcePage
      sla { policy { name } firstResponseDueAt nextResponseDueAt resolutionDueAt met breached }
      agents { _id id_user { _id fullName email } }
      department { _id name }
      lead { _id fullname email }
      notes { _id text createdAt }
    }
    messages(project_id: $project, request_id: $request) {
      _id sender senderFullname text type metadata attributes createdAt status receipts hidden sentByBot
    }
    requestTimeline(project_id: $project, request_id: $request) { seq name at text }
  }
`);

export const MessageEvents = graphql(`
  subscription ConsoleMessageEvents($project: String!, $request: String!, $after: Int) {
    requestMessages(project_id: $project, request_id: $request, after: $after) {
      seq
      message { _id sender senderFullname text type metadata attributes createdAt status receipts hidden sentByBot }
    }
  }
`);

export const Reply = graphql(`
  mutation ConsoleReply($project: String!, $request: String!, $text: String!, $attributes: JSON, $type: String, $metadata: JSON) {
    sendMessage(project_id: $project, request_id: $request, text: $text, attributes: $attributes, type: $type, metadata: $metadata) {
      _id sender senderFullname text type metadata attributes createdAt status receipts hidden sentByBot
    }
  }
`);

export const Take = graphql(`
  mutation ConsoleTake($project: String!, $request: String!) {
    takeRequest(project_id: $project, request_id: $request) { request_id status participatingAgents }
  }
`);

export const Close = graphql(`
  mutation ConsoleClose($project: String!, $request: String!) {
    closeRequest(project_id: $project, request_id: $request) { request_id status }
  }
`);

export const Reopen = graphql(`
  mutation ConsoleReopen($project: String!, $request: String!) {
    reopenRequest(project_id: $project, request_id: $request) { request_id status }
  }
`);

export const AddNote = graphql(`
  mutation ConsoleAddNote($project: String!, $request: String!, $text: String!) {
    addRequestNote(project_id: $project, request_id: $request, text: $text) { request_id notes { _id text createdAt } }
  }
`);

export const RemoveTag = graphql(`
  mutation ConsoleRemoveTag($project: String!, $request: String!, $tag: String!) {
    removeRequestTag(project_id: $project, request_id: $request, tag: $tag) { request_id tags }
  }
`);

export const AddTag = graphql(`
  mutation ConsoleAddTag($project: String!, $request: String!, $tag: JSON!) {
    addRequestTags(project_id: $project, request_id: $request, tag: $tag) { request_id tags }
  }
`);

export const CannedResponses = graphql(`
  query ConsoleCanned($project: String!) {
    cannedResponses(project_id: $project, limit: 100) { _id title text }
  }
`);

export const RenderCanned = graphql(`
  query ConsoleRenderCanned($project: String!, $id: String!, $request: String!) {
    renderCannedResponse(project_id: $project, id: $id, request_id: $request) { text }
  }
`);

export const Team = graphql(`
  query ConsoleTeam($project: String!) {
    teammates(project_id: $project) { _id role user_available presence { status } id_user { _id fullName email } }
  }
`);

export const Presence = graphql(`
  subscription ConsolePresence($project: String!, $after: Int) {
    teammatePresence(project_id: $project, after: $after) { seq status teammate { _id user_available } }
  }
`);

export const SetAvailable = graphql(`
  mutation ConsoleSetAvailable($project: String!, $available: Boolean!) {
    updateMyTeammate(project_id: $project, user_available: $available) { _id user_available }
  }
`);

export const AssignTargets = graphql(`
  query ConsoleAssignTargets($project: String!) {
    departments(project_id: $project) { _id name id_bot }
    teammates(project_id: $project) { _id role id_user { _id fullName email } }
  }
`);

export const RouteToDepartment = graphql(`
  mutation ConsoleRoute($project: String!, $request: String!, $department: String!) {
    routeRequest(project_id: $project, request_id: $request, departmentid: $department) { request_id status }
  }
`);

export const AssignTo = graphql(`
  mutation ConsoleAssign($project: String!, $request: String!, $participants: [String!]!) {
    setRequestParticipants(project_id: $project, request_id: $request, participants: $participants) { request_id status participatingAgents }
  }
`);

export const Reports = graphql(`
  query ConsoleReports($project: String!) {
    analyticsRequestCount(project_id: $project) { count }
    analyticsBotRequestCount(project_id: $project) { count }
    analyticsRequestsByDay(project_id: $project) { date count }
    analyticsMessagesByDay(project_id: $project) { date count }
    analyticsRequestsByHourOfWeek(project_id: $project) { weekday hour count }
    analyticsWaitingTime(project_id: $project) { average count }
    analyticsRequestDuration(project_id: $project) { average median count }
    analyticsSatisfaction(project_id: $project) { average count }
    analyticsSatisfactionDistribution(project_id: $project) { rating count }
    analyticsFirstResponseByAgent(project_id: $project) { id_user fullname average median count }
  }
`);

export const MarkSeen = graphql(`
  mutation ConsoleMarkSeen($project: String!, $request: String!) {
    markRequestSeen(project_id: $project, request_id: $request) { request_id unread }
  }
`);

export const Contact = graphql(`
  query ConsoleContact($project: String!, $request: String!) {
    request(project_id: $project, request_id: $request) {
      request_id sourcePage userAgent location device
      browser { name version }
      os { name version }
      lead { _id fullname email phone company attributes }
    }
  }
`);

export const LeadConversations = graphql(`
  query ConsoleLeadConversations($project: String!, $lead: String!) {
    requests(project_id: $project, lead: $lead, status: "all", sortField: "createdAt", limit: 20) {
      count
      requests { request_id ticket_id first_text status createdAt merged_into }
    }
  }
`);

export const UpdateLead = graphql(`
  mutation ConsoleUpdateLead($project: String!, $id: String!, $fullname: String, $email: String, $phone: String) {
    updateLead(project_id: $project, id: $id, fullname: $fullname, email: $email, phone: $phone) { _id fullname email phone }
  }
`);

export const LeadExport = graphql(`
  query ConsoleLeadExport($project: String!, $id: String!) {
    leadExport(project_id: $project, id: $id)
  }
`);

export const EraseLead = graphql(`
  mutation ConsoleEraseLead($project: String!, $id: String!) {
    deleteLead(project_id: $project, id: $id, erase: true) { _id fullname email }
  }
`);

export const ProjectRetention = graphql(`
  query ConsoleProjectRetention($project: String!) {
    project(project_id: $project) { _id retention_days }
  }
`);

export const UpdateRetention = graphql(`
  mutation ConsoleUpdateRetention($project: String!, $days: Int!) {
    updateProject(project_id: $project, retention_days: $days) { _id retention_days }
  }
`);

export const Search = graphql(`
  query ConsoleSearch($project: String!, $q: String!) {
    search(project_id: $project, q: $q, limit: 8) {
      requests { request_id ticket_id first_text lead { fullname email } }
      messages { _id text recipient senderFullname createdAt }
      leads { _id fullname email }
    }
  }
`);

export const FilterTargets = graphql(`
  query ConsoleFilterTargets($project: String!) {
    departments(project_id: $project) { _id name }
    teammates(project_id: $project) { _id role id_user { _id fullName email } }
  }
`);

export const SignOut = graphql(`
  mutation ConsoleSignOut {
    signOut { success }
  }
`);
