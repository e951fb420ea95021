/**
 * What a GraphQL request may ask for, checked before anything runs: how deep it goes
 * (introspection aside: the standard introspection query of every tool is 15 deep, and it
 * only reads the schema) and, below, what it costs.
 */
import { GraphQLError, Kind, type ASTVisitor, type FragmentDefinitionNode, type SelectionSetNode, type ValidationContext } from 'graphql';

/** Introspection reads the schema only: `__schema`, `__type` and everything below them. */
const isIntrospection = (name: string) => name.startsWith('__');

/**
 * A validation rule: refuse an operation whose fields nest deeper than `limit`, not
 * counting introspection fields (and everything below them).
 */
export function depthLimit(limit: number) {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const d of context.getDocument().definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
    const depthOf = (set: SelectionSetNode, seen: Set<string>): number => {
      let deepest = 0;
      for (const s of set.selections) {
        if (s.kind === Kind.FIELD) {
          if (isIntrospection(s.name.value)) continue;
          deepest = Math.max(deepest, 1 + (s.selectionSet ? depthOf(s.selectionSet, seen) : 0));
        } else if (s.kind === Kind.INLINE_FRAGMENT) {
          deepest = Math.max(deepest, depthOf(s.selectionSet, seen));
        } else {
          const fragment = fragments.get(s.name.value);
          // A cycle or a missing fragment is reported by graphql-js' own rules.
          if (!fragment || seen.has(s.name.value)) continue;
          deepest = Math.max(deepest, depthOf(fragment.selectionSet, new Set([...seen, s.name.value])));
        }
      }
      return deepest;
    };
    return {
      OperationDefinition(node) {
        const depth = depthOf(node.selectionSet, new Set());
        if (depth > limit) {
          const name = node.name ? `"${node.name.value}"` : 'The operation';
          context.reportError(new GraphQLError(`${name} nests fields ${depth} deep; at most ${limit} are allowed`, { nodes: [node] }));
        }
      },
    };
  };
}
