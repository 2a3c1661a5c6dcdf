import { GraphQLError, Kind, type ASTVisitor, type SelectionSetNode, type ValidationContext } from 'graphql';

/**
 * A query's cost: every field selected costs 1, and each top-level field (each one reads read models)
 * costs `rootFieldCost`. Aliases count once each and fragments are expanded, so neither a hundred
 * aliased dashboards nor a fragment cycle slips through. Introspection counts like data: `__schema` walks
 * the whole schema, and 2,000 aliased copies of it in one request (when `__` fields were free) were a
 * 51 MB answer that held the event loop for 17 s; GraphiQL's standard introspection query costs about
 * 220. The depth is limited separately (queryDepth).
 */
export function queryCostRule(options: { maxCost: number; rootFieldCost: number }) {
  return (context: ValidationContext): ASTVisitor => {
    function cost(
      selectionSet: SelectionSetNode | undefined,
      depth: number,
      fragmentsSeen: ReadonlySet<string>,
    ): number {
      if (!selectionSet) return 0;
      let total = 0;
      for (const selection of selectionSet.selections) {
        if (selection.kind === Kind.FIELD) {
          total += (depth === 0 ? options.rootFieldCost : 1) + cost(selection.selectionSet, depth + 1, fragmentsSeen);
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          total += cost(selection.selectionSet, depth, fragmentsSeen);
        } else {
          const name = selection.name.value;
          // A cycle is reported by the standard rules; here it just stops counting.
          if (fragmentsSeen.has(name)) continue;
          total += cost(context.getFragment(name)?.selectionSet, depth, new Set([...fragmentsSeen, name]));
        }
        if (total > options.maxCost) return total;
      }
      return total;
    }

    return {
      OperationDefinition(node) {
        const total = cost(node.selectionSet, 0, new Set());
        if (total > options.maxCost) {
          context.reportError(
            new GraphQLError(
              `This query is too complex (cost ${total} over the limit of ${options.maxCost}). Ask for fewer fields or split it.`,
              { nodes: [node] },
            ),
          );
        }
      },
    };
  };
}
