import { GraphQLError, Kind, type ASTVisitor, type SelectionSetNode, type ValidationContext } from 'graphql';

/**
 * How deep a query may select. The analytics types are at most five levels deep, so `maxDepth` only
 * bites on nonsense; introspection is where depth is unbounded (`__type { fields { type { fields … } } }`
 * nests forever), so its subtrees get their own limit, deep enough for GraphiQL's standard introspection
 * query and no deeper. (mercurius' own `queryDepth` counts introspection with the data, which either
 * refuses GraphiQL or lets the recursion through.)
 */
export function queryDepthRule(options: { maxDepth: number; maxIntrospectionDepth: number }) {
  return (context: ValidationContext): ASTVisitor => {
    // A fragment is as deep wherever it is spread: measured once, or `...A` spreading `...B` twice,
    // spreading `...C` twice, and so on, would be measured 2^n times.
    const fragmentDepths = new Map<string, { data: number; introspection: number }>();
    function fragmentDepth(name: string, fragmentsSeen: ReadonlySet<string>) {
      if (fragmentsSeen.has(name)) return { data: 0, introspection: 0 };
      let found = fragmentDepths.get(name);
      if (!found) {
        found = depth(context.getFragment(name)?.selectionSet, new Set([...fragmentsSeen, name]));
        fragmentDepths.set(name, found);
      }
      return found;
    }

    function depth(
      selectionSet: SelectionSetNode | undefined,
      fragmentsSeen: ReadonlySet<string>,
    ): { data: number; introspection: number } {
      let data = 0;
      let introspection = 0;
      if (!selectionSet) return { data, introspection };
      for (const selection of selectionSet.selections) {
        if (selection.kind === Kind.FIELD) {
          const below = depth(selection.selectionSet, fragmentsSeen);
          if (selection.name.value.startsWith('__'))
            introspection = Math.max(introspection, 1 + Math.max(below.data, below.introspection));
          else {
            data = Math.max(data, 1 + below.data);
            introspection = Math.max(introspection, below.introspection === 0 ? 0 : 1 + below.introspection);
          }
        } else {
          const inner =
            selection.kind === Kind.INLINE_FRAGMENT
              ? depth(selection.selectionSet, fragmentsSeen)
              : fragmentDepth(selection.name.value, fragmentsSeen);
          data = Math.max(data, inner.data);
          introspection = Math.max(introspection, inner.introspection);
        }
      }
      return { data, introspection };
    }

    return {
      OperationDefinition(node) {
        const found = depth(node.selectionSet, new Set());
        if (found.data > options.maxDepth) {
          context.reportError(
            new GraphQLError(`This query is too deep (${found.data} levels; at most ${options.maxDepth}).`, {
              nodes: [node],
            }),
          );
        }
        if (found.introspection > options.maxIntrospectionDepth) {
          context.reportError(
            new GraphQLError(
              `This introspection query is too deep (${found.introspection} levels; at most ${options.maxIntrospectionDepth}).`,
              { nodes: [node] },
            ),
          );
        }
      },
    };
  };
}
