import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Every text a refusal says comes from a catalogue in contracts (issue 25 item 3), so it has a code the client
 * translates by: a literal sentence at a throw site has none, and its Hebrew is lost the day it is reworded.
 * This reads the services' source (the TypeScript syntax tree, not a regex) and fails on such a literal, and
 * on a module outside api/ that reaches for the HTTP error class instead of throwing DomainError.
 */
const SRC = fileURLToPath(new URL('../..', import.meta.url));

/** Texts said to a machine, never shown to a person: the channels' and Stripe's webhooks, a socket address. */
const SAID_TO_MACHINES = new Set([
  'The secret token is missing.',
  'The secret token is wrong.',
  'The verify token is wrong.',
  'The X-Hub-Signature-256 signature is missing.',
  'The X-Hub-Signature-256 signature is wrong.',
  'Not Found',
  'Expected a JSON body.',
  'Malformed Stripe object.',
  'This address takes a WebSocket connection.',
]);

/** The error classes whose second argument is the text the client shows. */
const REFUSALS = new Set(['ApiError', 'DomainError']);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : sources(path);
    return /\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [path] : [];
  });
}

/** A text written out where it is thrown: a string, a template, or a concatenation of them. */
function literalText(node: ts.Node): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) return node.getText();
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) return node.getText();
  if (ts.isConditionalExpression(node)) return literalText(node.whenTrue) ?? literalText(node.whenFalse);
  return undefined;
}

/** `reply.status(4xx).send({ detail: … })`: the status of the send this object is given to, if it is one. */
function sentStatus(object: ts.ObjectLiteralExpression): number | undefined {
  const send = object.parent;
  if (!ts.isCallExpression(send) || !ts.isPropertyAccessExpression(send.expression)) return undefined;
  if (send.expression.name.text !== 'send') return undefined;
  const status = send.expression.expression;
  if (!ts.isCallExpression(status) || !ts.isPropertyAccessExpression(status.expression)) return undefined;
  if (!['status', 'code'].includes(status.expression.name.text)) return undefined;
  const [code] = status.arguments;
  return code && ts.isNumericLiteral(code) ? Number(code.text) : undefined;
}

interface Finding {
  at: string;
  text: string;
}

function scan(): { literals: Finding[]; httpClassOutsideApi: string[]; refusalsSeen: number } {
  const literals: Finding[] = [];
  const httpClassOutsideApi: string[] = [];
  let refusalsSeen = 0;
  for (const file of sources(SRC)) {
    const path = relative(SRC, file);
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const at = (node: ts.Node) => `${path}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
    const visit = (node: ts.Node) => {
      if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && REFUSALS.has(node.expression.text)) {
        refusalsSeen++;
        const said = node.arguments?.[1];
        const text = said && literalText(said);
        if (text !== undefined && !SAID_TO_MACHINES.has(text)) literals.push({ at: at(node), text });
      }
      if (ts.isObjectLiteralExpression(node) && (sentStatus(node) ?? 0) >= 400) {
        for (const property of node.properties) {
          if (!ts.isPropertyAssignment(property) || property.name.getText() !== 'detail') continue;
          const text = literalText(property.initializer);
          if (text !== undefined && !SAID_TO_MACHINES.has(text)) literals.push({ at: at(property), text });
        }
      }
      if (
        ts.isImportDeclaration(node) &&
        ts.isStringLiteral(node.moduleSpecifier) &&
        /\/api-error\.js$/.test(node.moduleSpecifier.text) &&
        !path.startsWith('api/')
      )
        httpClassOutsideApi.push(at(node));
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { literals, httpClassOutsideApi, refusalsSeen };
}

describe('where refusals are thrown', () => {
  const found = scan();

  it('reads the throw sites (the scan is not looking at nothing)', () => {
    expect(found.refusalsSeen).toBeGreaterThan(150);
  });

  it('says every refusal with a catalogue text, never a sentence written at the throw site', () => {
    expect(found.literals, 'move each text into a catalogue in contracts (with its Hebrew in the client)').toEqual([]);
  });

  it('throws DomainError from use cases: the HTTP error class stays in api/', () => {
    expect(found.httpClassOutsideApi).toEqual([]);
  });

  it('would catch a literal, a template and a sent detail', () => {
    const probe = ts.createSourceFile(
      'probe.ts',
      [
        "throw new DomainError('not_found', 'Gone.');",
        'throw new ApiError(400, `${a}: ${b}`);',
        "reply.status(409).send({ detail: 'Taken' });",
        "reply.status(200).send({ detail: 'Done' });",
      ].join('\n'),
      ts.ScriptTarget.Latest,
      true,
    );
    const texts: string[] = [];
    const visit = (node: ts.Node) => {
      if (ts.isNewExpression(node) && node.arguments?.[1]) texts.push(literalText(node.arguments[1])!);
      if (ts.isObjectLiteralExpression(node) && (sentStatus(node) ?? 0) >= 400) {
        for (const property of node.properties)
          if (ts.isPropertyAssignment(property)) texts.push(literalText(property.initializer)!);
      }
      ts.forEachChild(node, visit);
    };
    visit(probe);
    expect(texts).toEqual(['Gone.', '`${a}: ${b}`', 'Taken']);
  });
});
