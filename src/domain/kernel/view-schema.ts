/**
 * JSON Schemas of views (GameModule.viewSchema). The service generates the GraphQL type of a
 * game's view from its schema, so the schema says everything the type says: each object's
 * `title` names its type (after the game's prefix: "Space" in Raid on Wuchao is
 * RaidOnWuchaoSpace, the top object is "View"), `description`s become the type's comments,
 * a nullable field is `json.nullable(...)`, and a record (`json.record`) is JSON.
 */
import type { JsonSchema } from './types.ts';

export { json } from './event-schema.ts';

/** An object of a view: every property always present (null where nullable), nothing else. */
export function viewObject(title: string, properties: Record<string, JsonSchema>, description?: string): JsonSchema {
  return { title, ...(description ? { description } : {}), type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
}

/** The schema with a description: the field's comment in the GraphQL type. */
export const described = (description: string, schema: JsonSchema): JsonSchema => ({ ...schema, description });
