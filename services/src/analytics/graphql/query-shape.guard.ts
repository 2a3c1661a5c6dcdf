import { GraphQLError, parse, visit, type DocumentNode, type SourceLocation } from 'graphql';

/** How big a GraphQL document may be before anything but the parser looks at it. */
export interface QueryShapeLimits {
  /** Tokens the parser reads before it gives up (graphql's own `maxTokens`). */
  maxTokens: number;
  /** Operations in one document (only one runs, but every one is validated). */
  maxOperations: number;
  /** Aliased fields in the whole document. */
  maxAliases: number;
  /** Fragment spreads (`...Name`) in the whole document. */
  maxFragmentSpreads: number;
}

/** A document refused before validation: not GraphQL (`GRAPHQL_PARSE_FAILED`), or too big (`QUERY_TOO_LARGE`). */
export class QueryShapeError extends Error {
  constructor(
    message: string,
    readonly code: 'GRAPHQL_PARSE_FAILED' | 'QUERY_TOO_LARGE' = 'QUERY_TOO_LARGE',
    /** Where a syntax error is, as graphql reports it. */
    readonly locations?: readonly SourceLocation[],
  ) {
    super(message);
  }
}

/**
 * Parses a document within `maxTokens` and counts what makes validation and execution expensive, so
 * that a document that is only there to tire the server is refused before graphql-js validates it.
 * The standard validation rules are not linear in everything (overlapping fields are compared in pairs,
 * fragments are expanded where they are spread), and execution multiplies with every alias — 2,000
 * aliased `__schema` selections in one request were 51 MB of answer. The cost and depth rules then
 * judge what remains, which is small by construction.
 *
 * Parsing here also means that only GraphQL text is ever accepted: mercurius would otherwise take a
 * `query` that is not GraphQL as a ready-made JSON syntax tree, which nothing else checks.
 */
export function checkQueryShape(source: string, limits: QueryShapeLimits): DocumentNode {
  let document: DocumentNode;
  try {
    document = parse(source, { maxTokens: limits.maxTokens });
  } catch (error) {
    if (error instanceof GraphQLError && /contains more th\w+ \d+ tokens/.test(error.message)) {
      throw new QueryShapeError(
        `This query is too long (more than ${limits.maxTokens} tokens). Ask for fewer fields or split it.`,
      );
    }
    if (error instanceof GraphQLError)
      throw new QueryShapeError(error.message, 'GRAPHQL_PARSE_FAILED', error.locations);
    throw error;
  }
  let operations = 0;
  let aliases = 0;
  let spreads = 0;
  visit(document, {
    OperationDefinition: () => void operations++,
    Field: (node) => void (node.alias && aliases++),
    FragmentSpread: () => void spreads++,
  });
  if (operations > limits.maxOperations)
    throw new QueryShapeError(
      `This document has ${operations} operations; at most ${limits.maxOperations} are allowed.`,
    );
  if (aliases > limits.maxAliases)
    throw new QueryShapeError(`This query has ${aliases} aliases; at most ${limits.maxAliases} are allowed.`);
  if (spreads > limits.maxFragmentSpreads)
    throw new QueryShapeError(
      `This query spreads fragments ${spreads} times; at most ${limits.maxFragmentSpreads} are allowed.`,
    );
  return document;
}
