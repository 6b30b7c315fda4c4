import { graphql } from '../gql/index.js';

export const SigninAnonymously = graphql(`
  mutation WidgetSignin($project: String!, $name: String) {
    signinAnonymously(id_project: $project, firstname: $name) {
      token
      user { _id fullName email }
    }
  }
`);

export const WidgetSettings = graphql(`
  query WidgetSettings($project: String!) {
    widgetSettings(project_id: $project) { name isopen available_agents }
  }
`);

export const WidgetMessages = graphql(`
  query WidgetMessages($project: String!, $request: String!) {
    messages(project_id: $project, request_id: $request) {
      _id sender senderFullname text type metadata attributes createdAt status receipts hidden sentByBot
    }
  }
`);

export const WidgetSend = graphql(`
  mutation WidgetSend($project: String!, $request: String!, $text: String!, $attributes: JSON, $sourcePage: String, $userAgent: String, $type: String, $metadata: JSON) {
    sendMessage(project_id: $project, request_id: $request, text: $text, attributes: $attributes, sourcePage: $sourcePage, userAgent: $userAgent, type: $type, metadata: $metadata) {
      _id sender senderFullname text type metadata attributes createdAt status receipts hidden sentByBot
    }
  }
`);

export const WidgetMessageEvents = graphql(`
  subscription WidgetMessageEvents($project: String!, $request: String!, $after: Int) {
    requestMessages(project_id: $project, request_id: $request, after: $after) {
      seq
      name
      message { _id sender senderFullname text type metadata attributes createdAt status receipts hidden sentByBot }
    }
  }
`);

export const WidgetRequestStatus = graphql(`
  query WidgetRequestStatus($project: String!, $request: String!) {
    request(project_id: $project, request_id: $request) { request_id status merged_into }
  }
`);

export const WidgetRate = graphql(`
  mutation WidgetRate($project: String!, $request: String!, $rate: Float!, $message: String) {
    rateRequest(project_id: $project, request_id: $request, rate: $rate, rate_message: $message) { request_id rating }
  }
`);
