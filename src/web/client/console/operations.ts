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
  query ConsoleInbox($project: String!, $status: String) {
    requests(project_id: $project, status: $status, limit: 100) {
      count
      requests { _id request_id ticket_id status first_text createdAt updatedAt hasBot participatingAgents tags lead { _id fullname email } }
    }
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
      _id request_id ticket_id status first_text participatingAgents tags
      lead { _id fullname email }
      notes { _id text createdAt }
    }
    messages(project_id: $project, request_id: $request) {
      _id sender senderFullname text type metadata attributes createdAt
    }
  }
`);

export const MessageEvents = graphql(`
  subscription ConsoleMessageEvents($project: String!, $request: String!, $after: Int) {
    requestMessages(project_id: $project, request_id: $request, after: $after) {
      seq
      message { _id sender senderFullname text type metadata attributes createdAt }
    }
  }
`);

export const Reply = graphql(`
  mutation ConsoleReply($project: String!, $request: String!, $text: String!, $attributes: JSON) {
    sendMessage(project_id: $project, request_id: $request, text: $text, attributes: $attributes) {
      _id sender senderFullname text type metadata attributes createdAt
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
    departments(project_id: $project) { _id name }
    teammates(project_id: $project) { _id role id_user { _id fullName email } }
  }
`);

export const RouteToDepartment = graphql(`
  mutation ConsoleRoute($project: String!, $request: String!, $department: String!) {
    routeRequest(project_id: $project, request_id: $request, departmentid: $department, nobot: true) { request_id status }
  }
`);

export const AssignTo = graphql(`
  mutation ConsoleAssign($project: String!, $request: String!, $participants: [String!]!) {
    setRequestParticipants(project_id: $project, request_id: $request, participants: $participants) { request_id status participatingAgents }
  }
`);
