import { graphql } from '../gql/index.js';

// The project's set-up, as an admin manages it from the console.

export const Team = graphql(`
  query ManageTeam($project: String!) {
    teammates(project_id: $project) { _id role user_available id_user { _id fullName email } }
  }
`);

/** Admins only: an agent's Team tab does not ask (it would be refused). */
export const PendingInvitations = graphql(`
  query ManageInvitations($project: String!) {
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

export const SetDepartmentBot = graphql(`
  mutation ManageSetDepartmentBot($project: String!, $id: String!, $bot: String) {
    updateDepartment(project_id: $project, id: $id, id_bot: $bot) { _id id_bot }
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
    kbNamespaces(project_id: $project) { _id name default preview_settings { model top_k temperature max_tokens } }
  }
`);

export const KbContents = graphql(`
  query ManageKbContents($project: String!, $namespace: String!) {
    kbContents(project_id: $project, namespace: $namespace, limit: 100) { count kbs { _id name type source status error updatedAt } }
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

export const ReadSitemap = graphql(`
  mutation ManageReadSitemap($project: String!, $sitemap: String!) {
    readKbSitemap(project_id: $project, sitemap: $sitemap) { sites errors { url message } }
  }
`);

export const AddKbPages = graphql(`
  mutation ManageAddKbPages($project: String!, $namespace: String!, $list: [String!]!) {
    createKbContents(project_id: $project, namespace: $namespace, list: $list) { _id }
  }
`);

export const DeleteKbContent = graphql(`
  mutation ManageDeleteKbContent($project: String!, $id: String!) {
    deleteKbContent(project_id: $project, content_id: $id) { _id }
  }
`);

export const Webhooks = graphql(`
  query ManageWebhooks($project: String!) {
    webhookSubscriptions(project_id: $project) { _id event target enabled disabledReason disabledAt }
  }
`);

export const WebhookDeliveries = graphql(`
  query ManageWebhookDeliveries($project: String!, $id: String!) {
    webhookDeliveries(project_id: $project, id: $id, limit: 20) {
      count
      deliveries { _id event status createdAt nextAttemptAt attempts { at attempt error reason redelivery statusCode durationMs } }
    }
  }
`);

export const CreateWebhook = graphql(`
  mutation ManageCreateWebhook($project: String!, $event: String!, $target: String!) {
    createWebhookSubscription(project_id: $project, event: $event, target: $target) { _id signingSecret }
  }
`);

export const Redeliver = graphql(`
  mutation ManageRedeliver($project: String!, $id: String!, $delivery: String!) {
    redeliverWebhook(project_id: $project, id: $id, delivery_id: $delivery) { _id status attempts { at statusCode error redelivery } }
  }
`);

export const RemoveTeammate = graphql(`
  mutation ManageRemoveTeammate($project: String!, $id: String!) {
    removeTeammate(project_id: $project, project_user_id: $id) { _id }
  }
`);

export const ChangeRole = graphql(`
  mutation ManageChangeRole($project: String!, $id: String!, $role: String!) {
    updateTeammate(project_id: $project, project_user_id: $id, role: $role) { _id role }
  }
`);

export const RevokeInvitation = graphql(`
  mutation ManageRevokeInvitation($project: String!, $id: String!) {
    revokeInvitation(project_id: $project, invitation_id: $id) { _id }
  }
`);

export const CreateCanned = graphql(`
  mutation ManageCreateCanned($project: String!, $title: String!, $text: String!) {
    createCannedResponse(project_id: $project, title: $title, text: $text) { _id }
  }
`);

export const EnableWebhook = graphql(`
  mutation ManageEnableWebhook($project: String!, $id: String!) {
    enableWebhookSubscription(project_id: $project, id: $id) { _id enabled }
  }
`);
