import { GraphQLError, Kind, type ASTVisitor, type FieldNode, type FragmentDefinitionNode, type InlineFragmentNode, type OperationDefinitionNode, type SelectionNode, type ValidationContext, type ValidationRule } from 'graphql';
import type { Plugin } from 'graphql-yoga';

// The depth and cost limits of data queries (GRAPHQL_MAX_DEPTH, GRAPHQL_MAX_COST), counted as
// graphql-armor counts them (each field, inline fragment and fragment spread is a level; an object
// costs 2, a scalar 1, each level down 1.5 times more, `first`/`last` multiply), except that
// introspection (`__schema`, `__type` and all below them) counts for nothing: the standard
// introspection query (graphql-js `getIntrospectionQuery()`, which GraphiQL, codegen, Postman and
// Apollo tooling send) nests 21 levels. Introspection cannot hide data below it (only the
// introspection types are there) and graphql-js bounds its cycles itself (MaxIntrospectionDepthRule,
// among the specified rules); whatever data stands beside it, or around it, counts in full.
// Whether introspection is allowed at all is the introspection policy's (introspection.ts).

const introspectionFields = new Set(['__schema', '__type']);

type Node = OperationDefinitionNode | FragmentDefinitionNode | SelectionNode;

const isIntrospection = (node: Node): boolean => node.kind === Kind.FIELD && introspectionFields.has(node.name.value);

/** What one fragment weighs, read once per operation (a cycle, refused by validation anyway, counts as nothing). */
function fragmentMeasure(context: ValidationContext, measure: (node: FragmentDefinitionNode) => number) {
  const known = new Map<string, number>();
  return (name: string): number => {
    const cached = known.get(name);
    if (cached !== undefined) return cached;
    known.set(name, 0);
    const fragment = context.getFragment(name);
    const value = fragment ? measure(fragment) : 0;
    known.set(name, value);
    return value;
  };
}

function refuse(kind: string, limit: number, found: number): never {
  throw new GraphQLError(`Syntax Error: Query ${kind} limit of ${limit} exceeded, found ${found}.`);
}

/** Levels below `node` (a field, fragment or operation), introspection not counted. */
function depthRule(limit: number): ValidationRule {
  return (context): ASTVisitor => {
    const depth = (node: Node): number => {
      if (isIntrospection(node)) return 0;
      if (node.kind === Kind.FRAGMENT_SPREAD) return 1 + fragmentDepth(node.name.value);
      if (!('selectionSet' in node) || !node.selectionSet) return 0;
      let deepest = 0;
      for (const child of node.selectionSet.selections) deepest = Math.max(deepest, depth(child) + (isIntrospection(child) || child.kind === Kind.FRAGMENT_SPREAD ? 0 : 1));
      return deepest;
    };
    const fragmentDepth = fragmentMeasure(context, depth);
    return {
      OperationDefinition(operation) {
        const found = depth(operation);
        if (found > limit) refuse('depth', limit, found);
      },
    };
  };
}

const objectCost = 2;
const scalarCost = 1;
const depthCostFactor = 1.5;

/** How many items a list field asks for (`first`/`last` as a literal), 1 otherwise. */
function multiplier(node: FieldNode | InlineFragmentNode | FragmentDefinitionNode): number {
  if (node.kind !== Kind.FIELD) return 1;
  const count = node.arguments?.find((argument) => argument.name.value === 'first' || argument.name.value === 'last');
  return count?.value.kind === Kind.INT ? Math.max(Number.parseInt(count.value.value, 10) || 1, 1) : 1;
}

function costRule(limit: number): ValidationRule {
  return (context): ASTVisitor => {
    const cost = (node: Node): number => {
      if (isIntrospection(node)) return 0;
      if (node.kind === Kind.OPERATION_DEFINITION) {
        return node.selectionSet.selections.reduce((sum, child) => sum + cost(child), 0);
      }
      if (node.kind === Kind.FRAGMENT_SPREAD) return scalarCost + depthCostFactor * fragmentCost(node.name.value);
      if (!node.selectionSet) return scalarCost;
      let total = objectCost;
      for (const child of node.selectionSet.selections) total += depthCostFactor * cost(child);
      return total * multiplier(node);
    };
    const fragmentCost = fragmentMeasure(context, cost);
    return {
      OperationDefinition(operation) {
        const found = cost(operation);
        if (found > limit) refuse('Cost', limit, found);
      },
    };
  };
}

/** The depth and cost limits of data queries, on every operation (HTTP and websocket alike). */
export function useOperationLimits(limits: { maxDepth: number; maxCost: number }): Plugin {
  const rules = [depthRule(limits.maxDepth), costRule(limits.maxCost)];
  return {
    onValidate({ addValidationRule }) {
      for (const rule of rules) addValidationRule(rule);
    },
  };
}
