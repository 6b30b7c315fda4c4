import { graphql } from '../gql/index.js';

// The knowledge base's live answers and feedback, shared by the console and the widget.

export const KbAnswerStream = graphql(`
  subscription KbAnswerStream($project: String!, $namespace: String!, $question: String!, $topK: Int, $temperature: Float) {
    kbAnswerStream(project_id: $project, namespace: $namespace, question: $question, top_k: $topK, temperature: $temperature) {
      delta done
      result { success answer id ids sources error_message }
    }
  }
`);

export const KbAnswerDrafts = graphql(`
  subscription KbAnswerDrafts($project: String!, $request: String!) {
    kbAnswerDrafts(project_id: $project, request_id: $request) { draft_id sender text done }
  }
`);

export const KbFeedback = graphql(`
  mutation KbFeedback($project: String!, $namespace: String, $question: String!, $id: String!, $helpful: Boolean!) {
    kbFeedback(project_id: $project, namespace: $namespace, question: $question, id: $id, helpful: $helpful) { __typename }
  }
`);

export const KbRateAnswer = graphql(`
  mutation KbRateAnswer($project: String!, $request: String!, $message: String!, $helpful: Boolean!) {
    kbRateAnswer(project_id: $project, request_id: $request, message_id: $message, helpful: $helpful) { __typename }
  }
`);

/** What a bot's knowledge answer carries about itself (`attributes.kb`). */
export interface KbMark {
  namespace?: string;
  id?: string;
  question?: string;
  draft_id?: string;
}

export const kbMarkOf = (attributes: unknown): KbMark | null => {
  const kb = (attributes as { kb?: KbMark } | null)?.kb;
  return kb && typeof kb === 'object' ? kb : null;
};
