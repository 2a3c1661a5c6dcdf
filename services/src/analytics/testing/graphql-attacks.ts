/**
 * Requests built to make the GraphQL endpoint work without end, each with the text it is refused with:
 * the attack test (graphql/graphql-abuse.int.test.ts) and the API benchmark's /health-under-attack
 * figure (ops/bench/api.bench.ts) send the same ones.
 */

/** The reported attack: 2,000 aliased `__schema` selections in one 173 KB request (51 MB answered in 16.8 s). */
export const ALIASED_SCHEMAS = `{ ${Array.from({ length: 2000 }, (_, i) => `s${i}: __schema { types { name kind description fields { name description args { name } } } }`).join(' ')} }`;

/**
 * Variants that each fit in 16 KB, so that they reach the checks after the size limit: the message
 * each is refused with says which limit it broke.
 */
export const VARIANTS: Record<string, { body: unknown; refusal: RegExp }> = {
  'the aliased __schema attack cut to fit in 16 KB': {
    body: { query: `{ ${Array.from({ length: 400 }, (_, i) => `s${i}: __schema { types { name } }`).join(' ')} }` },
    refusal: /^This query is too long \(more than 2000 tokens\)/,
  },
  'aliased __typename, many': {
    body: { query: `{ ${Array.from({ length: 300 }, (_, i) => `t${i}: __typename`).join(' ')} }` },
    refusal: /^This query has 300 aliases; at most 30 are allowed\.$/,
  },
  'aliased introspection within the alias limit (introspection is counted)': {
    body: {
      query: `{ ${Array.from({ length: 30 }, (_, i) => `s${i}: __schema { types { name fields { name } } }`).join(' ')} }`,
    },
    refusal: /^This query is too complex \(cost \d+ over the limit of 400\)/,
  },
  'one fragment spread many times': {
    body: { query: `{ ${'...F '.repeat(200)} } fragment F on Query { __schema { types { name fields { name } } } }` },
    refusal: /^This query spreads fragments 200 times; at most 50 are allowed\.$/,
  },
  'a fragment spread within the limit, each spread counted': {
    body: { query: `{ ${'...F '.repeat(40)} } fragment F on Query { __schema { types { name fields { name } } } }` },
    refusal: /^This query is too complex \(cost \d+ over the limit of 400\)/,
  },
  'fragments doubling at every level (2^24 expansions)': {
    body: {
      query: `{ ...F0 } ${Array.from({ length: 24 }, (_, i) => `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`).join(' ')} fragment F24 on Query { __typename }`,
    },
    refusal: /^This query is too complex \(cost \d+ over the limit of 400\)/,
  },
  'deeply nested introspection': {
    body: { query: `{ __type(name: "Dashboard") { ${'fields { type { '.repeat(60)}name${' } }'.repeat(60)} } }` },
    refusal: /^This introspection query is too deep \(\d+ levels; at most 16\)\./,
  },
  'many operations in one document': {
    body: {
      query: Array.from({ length: 40 }, (_, i) => `query Q${i} { __schema { types { name fields { name } } } }`).join(
        ' ',
      ),
      operationName: 'Q0',
    },
    refusal: /^This document has 40 operations; at most 10 are allowed\.$/,
  },
  'a batched array of queries': {
    body: Array.from({ length: 100 }, () => ({ query: '{ __schema { types { name fields { name } } } }' })),
    refusal: /body must be object|expected object/i,
  },
  'a JSON syntax tree instead of GraphQL text': {
    body: {
      query: JSON.stringify({
        kind: 'Document',
        definitions: [
          { kind: 'OperationDefinition', operation: 'query', selectionSet: { kind: 'SelectionSet', selections: [] } },
        ],
      }),
    },
    refusal: /^Syntax Error/,
  },
};
