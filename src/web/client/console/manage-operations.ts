import { graphql } from '../gql/index.js';

// The project's set-up, as an admin manages it from the console.

export const TeamAndInvitations = graphql(`
  query ManageTeam($project: String!) {
    teammates(project_id: $project) { _id role user_available id_user { _id fullName email } }
    invitations(project_id: $project) { _id email role createdAt }
  }
`);

export const Invite = graphql(`
  mutation ManageInvite($project: String!, $email: String!, $role: String!) {
    inviteTeammate(project_id: $project, email: $email, role: $role) { success pending }
  }
`);

export const DepartmentsAndGroups = graphql(`
  query ManageDepartments($project: String!) {
    departments(project_id: $project) { _id name default routing id_bot id_group status }
    groups(project_id: $project) { _id name members }
    bots(project_id: $project) { _id name }
  }
`);

export const CreateDepartment = graphql(`
  mutation ManageCreateDepartment($project: String!, $name: String!, $routing: String, $bot: String) {
    createDepartment(project_id: $project, name: $name, routing: $routing, id_bot: $bot) { _id }
  }
`);

export const CreateGroup = graphql(`
  mutation ManageCreateGroup($project: String!, $name: String!, $members: [String!]) {
    createGroup(project_id: $project, name: $name, members: $members) { _id }
  }
`);

export const BotsAndIntents = graphql(`
  query ManageBots($project: String!) {
    bots(project_id: $project) { _id name type kb_namespace }
    intents(project_id: $project, limit: 0) { _id id_faq_kb intent_display_name question answer }
  }
`);

export const CreateBot = graphql(`
  mutation ManageCreateBot($project: String!, $name: String!, $template: String) {
    createBot(project_id: $project, name: $name, template: $template) { _id }
  }
`);

export const CreateIntent = graphql(`
  mutation ManageCreateIntent($project: String!, $bot: String!, $question: String!, $answer: String!) {
    createIntent(project_id: $project, id_faq_kb: $bot, question: $question, answer: $answer) { _id }
  }
`);

export const KnowledgeBases = graphql(`
  query ManageKbs($project: String!) {
    kbNamespaces(project_id: $project) { _id name default }
  }
`);

export const KbContents = graphql(`
  query ManageKbContents($project: String!, $namespace: String!) {
    kbContents(project_id: $project, namespace: $namespace, limit: 100) { count kbs { _id name type source status error } }
  }
`);

export const KbIndexing = graphql(`
  subscription ManageKbIndexing($project: String!, $namespace: String!, $after: Int) {
    kbIndexing(project_id: $project, namespace: $namespace, after: $after) { seq content_id status error }
  }
`);

export const CreateKb = graphql(`
  mutation ManageCreateKb($project: String!, $name: String!) {
    createKbNamespace(project_id: $project, name: $name) { _id }
  }
`);

export const AddKbContent = graphql(`
  mutation ManageAddKbContent($project: String!, $namespace: String!, $name: String!, $type: String!, $source: String, $content: String) {
    createKbContent(project_id: $project, namespace: $namespace, name: $name, type: $type, source: $source, content: $content) { value { _id status } }
  }
`);

export const Webhooks = graphql(`
  query ManageWebhooks($project: String!) {
    webhookSubscriptions(project_id: $project) { _id event target enabled disabledReason }
  }
`);

export const WebhookDeliveries = graphql(`
  query ManageWebhookDeliveries($project: String!, $id: String!) {
    webhookDeliveries(project_id: $project, id: $id, limit: 20) { count deliveries { _id event status createdAt attempts { attempt error redelivery } } }
  }
`);

export const CreateWebhook = graphql(`
  mutation ManageCreateWebhook($project: String!, $event: String!, $target: String!) {
    createWebhookSubscription(project_id: $project, event: $event, target: $target) { _id signingSecret }
  }
`);

export const Redeliver = graphql(`
  mutation ManageRedeliver($project: String!, $id: String!, $delivery: String!) {
    redeliverWebhook(project_id: $project, id: $id, delivery_id: $delivery) { _id status }
  }
`);

export const CreateCanned = graphql(`
  mutation ManageCreateCanned($project: String!, $title: String!, $text: String!) {
    createCannedResponse(project_id: $project, title: $title, text: $text) { _id }
  }
`);
