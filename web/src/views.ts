/**
 * The selection set of a game's view, built from the service's schema by introspection:
 * every member of the GameView union with all of its fields. A game the service hosts is
 * read whole, whatever its view type, with no fragment written by hand here.
 */
import { gql } from './api.ts';

interface TypeRef { kind: string; name: string | null; ofType: TypeRef | null }
interface Field { name: string; args: { type: { kind: string } }[]; type: TypeRef }
interface SchemaType { kind: string; name: string; fields: Field[] | null; possibleTypes: { name: string }[] | null }

const DEEP_REF = 'kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } }';
const INTROSPECTION = `{ __schema { types { kind name possibleTypes { name } fields { name args { type { kind } } type { ${DEEP_REF} } } } } }`;

let selection: Promise<string> | null = null;

/** `{ __typename ... on RaidOnWuchaoView { round ... } ... }`: read once per page load. */
export function viewSelection(): Promise<string> {
  selection ??= gql<{ __schema: { types: SchemaType[] } }>(INTROSPECTION).then(
    (r) => selectionOf(new Map(r.__schema.types.map((t) => [t.name, t])), 'GameView'),
    (e) => {
      selection = null;
      throw e;
    },
  );
  return selection;
}

const named = (t: TypeRef): TypeRef => (t.ofType ? named(t.ofType) : t);

/** Every field of a type that takes no required argument, objects expanded (a cycle is cut). */
export function selectionOf(types: Map<string, SchemaType>, name: string, path: string[] = []): string {
  const type = types.get(name);
  if (!type) return '{ __typename }';
  if (type.kind === 'UNION' || type.kind === 'INTERFACE') {
    const members = (type.possibleTypes ?? []).filter((m) => !path.includes(m.name));
    return `{ __typename ${members.map((m) => `... on ${m.name} ${selectionOf(types, m.name, [...path, name])}`).join(' ')} }`;
  }
  const fields = (type.fields ?? [])
    .filter((f) => !f.args.some((a) => a.type.kind === 'NON_NULL'))
    .map((f) => {
      const inner = named(f.type);
      if (inner.kind === 'SCALAR' || inner.kind === 'ENUM') return f.name;
      if (!inner.name || path.includes(inner.name)) return null;
      return `${f.name} ${selectionOf(types, inner.name, [...path, name])}`;
    })
    .filter((f): f is string => f !== null);
  return `{ ${fields.join(' ')} }`;
}
