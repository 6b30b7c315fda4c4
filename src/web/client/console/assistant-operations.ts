import { graphql } from '../gql/index.js';

export const Suggestions = graphql(`
  query ConsoleSuggestions($project: String!, $request: String!) {
    requestSuggestions(project_id: $project, request_id: $request) {
      question language sentiment
      replies { text source ref score }
      tags { tag score }
    }
  }
`);

export const Summary = graphql(`
  query ConsoleSummary($project: String!, $request: String!) {
    requestSummary(project_id: $project, request_id: $request) { summary method by createdAt }
  }
`);

export const Summarize = graphql(`
  mutation ConsoleSummarize($project: String!, $request: String!) {
    summarizeRequest(project_id: $project, request_id: $request) { summary method by createdAt }
  }
`);
