/**
 * The GraphQL object type of each game's view (members of the GameView union), generated
 * from the module's `viewSchema` (src/domain/kernel/view-schema.ts says how to write one),
 * as openapi.ts derives its components from the command schemas. A module without a view
 * schema is served as GenericView { gameType, state }.
 */
import type { GameModule, JsonSchema } from '../domain/kernel/index.ts';

export interface ViewType {
  gameType: string;
  /** `<Game>View`, e.g. RaidOnWuchaoView. */
  typeName: string;
  sdl: string;
}

/** "raid-on-wuchao" → "RaidOnWuchao": the prefix of every type of the game's view. */
export const pascal = (id: string) => id.replace(/(^|-)([a-z0-9])/g, (_, _dash, c: string) => c.toUpperCase());

const SCALARS: Record<string, string> = { integer: 'Int', number: 'Float', string: 'String', boolean: 'Boolean' };

const comment = (schema: JsonSchema, indent = '') => (typeof schema.description === 'string' ? `${indent}${JSON.stringify(schema.description)}\n` : '');

/** The schema without its null alternative, and whether it had one (the field's description stays with the field). */
function nonNull(schema: JsonSchema): { schema: JsonSchema; nullable: boolean } {
  const anyOf = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (anyOf) {
    const others = anyOf.filter((s) => s.type !== 'null');
    if (others.length === 1) return { schema: others[0]!, nullable: others.length < anyOf.length };
  }
  if (Array.isArray(schema.type) && schema.type.includes('null')) {
    const types = schema.type.filter((t) => t !== 'null');
    return { schema: { ...schema, type: types.length === 1 ? types[0] : types }, nullable: true };
  }
  return { schema, nullable: false };
}

/** The GraphQL scalar of an enum or a const: String or Int. */
function literalScalar(values: unknown[]): string | undefined {
  if (values.every((v) => typeof v === 'string')) return 'String';
  if (values.every((v) => Number.isInteger(v))) return 'Int';
  return undefined;
}

/** The SDL of the game's view type and of every object type below it, or undefined without a view schema. */
export function viewType(module: GameModule): ViewType | undefined {
  if (!module.viewSchema) return undefined;
  const prefix = pascal(module.id);
  const types = new Map<string, { schema: JsonSchema; sdl: string }>();
  const fail = (path: string, why: string): never => {
    throw new Error(`${module.id} viewSchema ${path}: ${why}`);
  };

  function fieldType(raw: JsonSchema, path: string): string {
    const { schema, nullable } = nonNull(raw);
    const bang = nullable ? '' : '!';
    if (Array.isArray(schema.enum)) return (literalScalar(schema.enum) ?? fail(path, 'an enum of strings or of integers')) + bang;
    if ('const' in schema) return (literalScalar([schema.const]) ?? fail(path, 'a const string or integer')) + bang;
    const type = schema.type;
    if (typeof type === 'string' && SCALARS[type]) return SCALARS[type] + bang;
    if (type === 'array') return `[${fieldType((schema.items as JsonSchema | undefined) ?? fail(path, 'an array without items'), `${path}[]`)}]${bang}`;
    if (type === 'object' && schema.properties && schema.additionalProperties === false) return objectType(schema, path) + bang;
    // A record (keys not fixed) has no GraphQL object type: it is served as JSON.
    if (type === 'object') return `JSON${bang}`;
    return fail(path, `no GraphQL type for ${JSON.stringify(schema).slice(0, 80)}`);
  }

  function objectType(schema: JsonSchema, path: string): string {
    if (typeof schema.title !== 'string') fail(path, 'an object needs a title: the name of its GraphQL type');
    const name = prefix + (schema.title as string);
    const known = types.get(name);
    if (known) {
      if (JSON.stringify(known.schema) !== JSON.stringify(schema)) fail(path, `two different objects are titled ${schema.title as string}`);
      return name;
    }
    types.set(name, { schema, sdl: '' });
    const required = (schema.required as string[] | undefined) ?? [];
    const fields = Object.entries(schema.properties as Record<string, JsonSchema>).map(([field, property]) => {
      // An absent key is not a null in GraphQL's terms: every field must always be there.
      if (!required.includes(field)) fail(`${path}.${field}`, 'every property of a view object is required (null where nullable)');
      return `${comment(property, '  ')}  ${field}: ${fieldType(property, `${path}.${field}`)}`;
    });
    types.set(name, { schema, sdl: `${comment(schema)}type ${name} {\n${fields.join('\n')}\n}\n` });
    return name;
  }

  if (module.viewSchema.title !== 'View') fail('', 'the view object is titled View');
  const typeName = objectType(module.viewSchema, 'view');
  // The View interface every typed view implements.
  const phase = (module.viewSchema.properties as Record<string, JsonSchema> | undefined)?.phase;
  if (!phase || fieldType(phase, 'view.phase') !== 'String!') fail('view.phase', 'a view has a phase: a string (the View interface)');
  return { gameType: module.id, typeName, sdl: [...types.values()].map((t) => t.sdl).join('\n') };
}

/** The view types of the modules that have a view schema, in the modules' order. */
export function viewTypes(modules: readonly GameModule[]): ViewType[] {
  return modules.flatMap((m) => viewType(m) ?? []);
}
