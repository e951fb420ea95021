/**
 * The registry lists the game types and validates input against each type's published
 * JSON Schemas before any rule runs.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { Command, GameModule, JsonSchema } from './types.ts';
import { matchCommandSchemas, MATCH_EVENTS, seatName } from './match.ts';
import { matchEventSchemas } from './event-schema.ts';

export interface GameType {
  id: string;
  name: string;
  seats: readonly string[];
  minPlayers: number;
  maxPlayers: number;
  optionsSchema: JsonSchema;
  /** The module's commands plus resign and draw commands, discriminated by `type`. */
  commandSchema: JsonSchema;
  /** Every event of the game's log (its own and the match's), as a client receives it, discriminated by `type`. */
  eventSchema: JsonSchema;
  /** The module's presentation: the lobby's one-liner ("" without one). */
  description: string;
  /** Every seat in seat order, with the name players read and its CSS hex colour. */
  seatDetails: SeatDetail[];
}

export interface SeatDetail {
  id: string;
  name: string;
  colour: string;
}

/** The colour of a seat whose module gives none. */
export const NEUTRAL_COLOUR = '#4a5568';

export type Validation<T> = { ok: true; value: T } | { ok: false; reason: string };

interface Entry {
  module: GameModule;
  type: GameType;
  options: ValidateFunction;
  command: ValidateFunction;
}

/**
 * A deep copy of a JSON value (parsed input: a command, creation options), for the schema's
 * defaults to be filled into: structuredClone does the same through its serializer, several
 * times slower on a command's few fields. `__proto__` stays an own key, as JSON.parse makes it.
 */
export function copyJson<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(copyJson) as T;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const v = copyJson((value as Record<string, unknown>)[key]);
    if (key === '__proto__') Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
    else out[key] = v;
  }
  return out as T;
}

function alternatives(schema: JsonSchema): JsonSchema[] {
  return Array.isArray(schema.oneOf) ? (schema.oneOf as JsonSchema[]) : [schema];
}

function describe(errors: ErrorObject[] | null | undefined): string {
  if (!errors?.length) return 'invalid';
  return errors
    .slice(0, 3)
    .map((e) => {
      const where = e.instancePath || '(root)';
      if (e.keyword === 'additionalProperties') return `${where}: unknown field "${(e.params as { additionalProperty: string }).additionalProperty}"`;
      if (e.keyword === 'discriminator') return `${where}: unknown command type`;
      return `${where} ${e.message}`;
    })
    .join('; ');
}

/** A presentation names and colours exactly the module's seats, each colour a CSS hex colour. */
function checkPresentation(module: GameModule): void {
  const shown = Object.keys(module.presentation!.seats);
  const missing = module.seats.filter((s) => !shown.includes(s));
  const extra = shown.filter((s) => !module.seats.includes(s));
  if (missing.length || extra.length) throw new Error(`game type ${module.id}: its presentation must name every seat and no other (missing ${missing.join(', ') || 'none'}, unknown ${extra.join(', ') || 'none'})`);
  for (const [seat, { colour }] of Object.entries(module.presentation!.seats)) {
    if (!/^#[0-9a-fA-F]{6}$/.test(colour)) throw new Error(`game type ${module.id}: the colour of ${seat} is not a CSS hex colour like #2b6cb0: ${colour}`);
  }
}

export class GameRegistry {
  private readonly entries = new Map<string, Entry>();
  private readonly ajv = new Ajv({ allErrors: false, discriminator: true, useDefaults: true, strict: false });

  constructor(modules: GameModule[]) {
    for (const module of modules) {
      if (this.entries.has(module.id)) throw new Error(`game type ${module.id} registered twice`);
      if (module.presentation) checkPresentation(module);
      const commandSchema: JsonSchema = {
        title: `${module.name} command`,
        type: 'object',
        required: ['type'],
        discriminator: { propertyName: 'type' },
        oneOf: [...alternatives(module.commandSchema), ...matchCommandSchemas],
      };
      // The module's events and the match's (a module's own GameEnded is the match's). A module
      // that publishes no event schema: its own events are any object whose type is not the match's.
      const isMatchEvent = (e: JsonSchema) => (MATCH_EVENTS as readonly string[]).includes((e.properties as { type: { const?: string } }).type.const ?? '');
      const eventSchema: JsonSchema = module.eventSchema
        ? { title: `${module.name} event`, type: 'object', required: ['type'], discriminator: { propertyName: 'type' }, oneOf: [...alternatives(module.eventSchema).filter((e) => !isMatchEvent(e)), ...matchEventSchemas] }
        : {
            title: `${module.name} event`,
            type: 'object',
            required: ['type'],
            oneOf: [...matchEventSchemas, { title: 'unpublished', type: 'object', required: ['type'], properties: { type: { type: 'string', not: { enum: [...MATCH_EVENTS] } } } }],
          };
      const type: GameType = {
        id: module.id,
        name: module.name,
        seats: module.seats,
        minPlayers: module.minPlayers,
        maxPlayers: module.maxPlayers,
        optionsSchema: module.optionsSchema,
        commandSchema,
        eventSchema,
        description: module.presentation?.description ?? '',
        seatDetails: module.seats.map((id) => {
          const shown = module.presentation?.seats[id];
          return { id, name: shown?.name ?? seatName(module, id), colour: shown?.colour ?? NEUTRAL_COLOUR };
        }),
      };
      this.entries.set(module.id, {
        module,
        type,
        options: this.ajv.compile(module.optionsSchema),
        command: this.ajv.compile(commandSchema),
      });
    }
  }

  types(): GameType[] {
    return [...this.entries.values()].map((e) => e.type);
  }

  /** The modules, in the order they were registered. */
  modules(): GameModule[] {
    return [...this.entries.values()].map((e) => e.module);
  }

  type(id: string): GameType | undefined {
    return this.entries.get(id)?.type;
  }

  module(id: string): GameModule | undefined {
    return this.entries.get(id)?.module;
  }

  /** Validates (and fills schema defaults into a copy of) the creation options. */
  validateOptions(id: string, options: unknown): Validation<unknown> {
    const entry = this.entries.get(id);
    if (!entry) return { ok: false, reason: `unknown game type "${id}"` };
    const value = copyJson(options ?? {});
    return entry.options(value) ? { ok: true, value } : { ok: false, reason: `options ${describe(entry.options.errors)}` };
  }

  validateCommand(id: string, command: unknown): Validation<Command> {
    const entry = this.entries.get(id);
    if (!entry) return { ok: false, reason: `unknown game type "${id}"` };
    if (typeof command !== 'object' || command === null || Array.isArray(command)) {
      return { ok: false, reason: 'a command is a JSON object with a "type" field' };
    }
    const value = copyJson(command);
    return entry.command(value) ? { ok: true, value: value as Command } : { ok: false, reason: `command ${describe(entry.command.errors)}` };
  }
}
