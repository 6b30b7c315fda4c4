import { Kind, type DocumentNode, type OperationDefinitionNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { noteRequestReadsOnly } from '../infra/request-scope.js';

/**
 * A GraphQL document of queries only, sent by POST, is a read: noted on its request once parsed
 * (before its context reads the caller), so the connections kept for writes are not its to take
 * (src/infra/connection-admission.ts).
 */
export function useReadOnlyOperations(): Plugin {
  return {
    onParse() {
      return ({ result }) => {
        if (!result || !('definitions' in result)) return;
        const operations = (result as DocumentNode).definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
        if (operations.length && operations.every((d) => d.operation === 'query')) noteRequestReadsOnly();
      };
    },
  };
}
