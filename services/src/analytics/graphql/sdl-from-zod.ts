import type { z } from 'zod';

/**
 * GraphQL type definitions generated from the contracts' zod schemas, so that the GraphQL types and the
 * REST DTOs are one definition (CONVENTIONS: types from zod, never written twice). Field names stay the
 * DTOs' own (snake_case): an analyst moving between the two APIs finds the same fields.
 *
 * Objects become types (nested ones named after their parent and field), enums become enums, integers
 * `Int`, other numbers `Float`; nullable and optional fields lose their `!`. Schemas given a name in
 * `named` are emitted once under it wherever they appear.
 */
export function sdlFromZod(
  roots: Readonly<Record<string, z.ZodType>>,
  named: ReadonlyMap<z.ZodType, string> = new Map(),
): string {
  const emitted = new Map<string, string>();
  const names = new Map<z.ZodType, string>(named);
  for (const [name, schema] of Object.entries(roots)) names.set(schema, name);

  function typeOf(schema: z.ZodType, suggestedName: string): { type: string; nullable: boolean } {
    const def = schema._zod.def as unknown as {
      type: string;
      innerType?: z.ZodType;
      in?: z.ZodType;
      out?: z.ZodType;
      element?: z.ZodType;
      shape?: Record<string, z.ZodType>;
      entries?: Record<string, string>;
    };
    switch (def.type) {
      case 'nullable':
      case 'optional':
        return { type: typeOf(def.innerType!, suggestedName).type, nullable: true };
      case 'default':
      case 'prefault':
      case 'readonly':
        return typeOf(def.innerType!, suggestedName);
      case 'pipe':
        return typeOf(def.out!, suggestedName);
      case 'string':
      case 'literal':
        return { type: 'String', nullable: false };
      case 'boolean':
        return { type: 'Boolean', nullable: false };
      case 'number':
        return {
          type: (schema as unknown as { format?: string | null }).format === 'safeint' ? 'Int' : 'Float',
          nullable: false,
        };
      case 'array': {
        const element = typeOf(def.element!, suggestedName);
        return { type: `[${element.type}${element.nullable ? '' : '!'}]`, nullable: false };
      }
      case 'enum': {
        const name = names.get(schema) ?? suggestedName;
        if (!emitted.has(name))
          emitted.set(
            name,
            `enum ${name} {\n${Object.values(def.entries!)
              .map((value) => `  ${value}`)
              .join('\n')}\n}`,
          );
        return { type: name, nullable: false };
      }
      case 'object': {
        const name = names.get(schema) ?? suggestedName;
        if (!emitted.has(name)) {
          emitted.set(name, '');
          const fields = Object.entries(def.shape!).map(([field, fieldSchema]) => {
            const description = fieldSchema.description
              ? `  "${fieldSchema.description.replace(/["\\]/g, "'")}"\n`
              : '';
            const { type, nullable } = typeOf(fieldSchema, `${name}${pascal(field)}`);
            return `${description}  ${field}: ${type}${nullable ? '' : '!'}`;
          });
          emitted.set(name, `type ${name} {\n${fields.join('\n')}\n}`);
        }
        return { type: name, nullable: false };
      }
      default:
        throw new Error(`sdlFromZod: no GraphQL type for a zod ${def.type} (${suggestedName})`);
    }
  }

  for (const [name, schema] of Object.entries(roots)) typeOf(schema, name);
  return [...emitted.values()].join('\n\n');
}

const pascal = (text: string) =>
  text.replace(/(^|_)([a-z0-9])/g, (_match, _sep: string, letter: string) => letter.toUpperCase());
