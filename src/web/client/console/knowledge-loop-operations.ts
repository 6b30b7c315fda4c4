import { graphql } from '../gql/index.js';

// The knowledge loop and the knowledge bases' batch tests, as an admin manages them from Settings.

export const KbProposals = graphql(`
  query ConsoleKbProposals($project: String!) {
    kbProposals(project_id: $project, limit: 20) { _id question answer count examples namespace }
  }
`);

export const AcceptKbProposal = graphql(`
  mutation ConsoleAcceptKbProposal($project: String!, $id: String!, $question: String, $answer: String) {
    acceptKbProposal(project_id: $project, proposal_id: $id, question: $question, answer: $answer) { _id status content_id }
  }
`);

export const UpdateKbProposal = graphql(`
  mutation ConsoleUpdateKbProposal($project: String!, $id: String!, $question: String, $answer: String) {
    updateKbProposal(project_id: $project, proposal_id: $id, question: $question, answer: $answer) { _id question answer }
  }
`);

export const DismissKbProposal = graphql(`
  mutation ConsoleDismissKbProposal($project: String!, $id: String!) {
    dismissKbProposal(project_id: $project, proposal_id: $id) { _id status }
  }
`);


export const KbTests = graphql(`
  query ConsoleKbTests($project: String!, $namespace: String) {
    kbTests(project_id: $project, namespace: $namespace) {
      namespace
      tests { id question expected }
      last_run { id trigger total passed pass_rate createdAt failures { question expected found { id name } } }
    }
  }
`);

export const SaveKbTests = graphql(`
  mutation ConsoleSaveKbTests($project: String!, $namespace: String, $tests: JSON) {
    saveKbTests(project_id: $project, namespace: $namespace, tests: $tests) { namespace }
  }
`);

export const RunKbTests = graphql(`
  mutation ConsoleRunKbTests($project: String!, $namespace: String) {
    runKbTests(project_id: $project, namespace: $namespace) { id }
  }
`);
