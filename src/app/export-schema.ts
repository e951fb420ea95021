/**
 * The shape of an export document (format `wargame-service/export@1`, docs/api.md). A
 * document of another shape is the client's mistake (BAD_REQUEST, naming the field), not
 * an export that fails to verify.
 */
import { Ajv } from 'ajv';
import { AppError } from './errors.ts';

const nullable = (schema: object) => ({ anyOf: [schema, { type: 'null' }] });

const schema = {
  type: 'object',
  required: ['game', 'events'],
  properties: {
    format: { const: 'wargame-service/export@1' },
    game: {
      type: 'object',
      required: ['type', 'players', 'seed', 'seedCommitment'],
      properties: {
        id: { type: 'string' },
        type: { type: 'string' },
        players: { type: 'array', items: { type: 'object', required: ['seat'], properties: { seat: { type: 'string' }, name: { type: 'string' } } } },
        seed: nullable({ type: 'string' }),
        seedCommitment: { type: 'string' },
        version: { type: 'integer' },
        rules: { type: 'string' },
      },
    },
    events: {
      type: 'array',
      items: { type: 'object', required: ['version', 'type'], properties: { version: { type: 'integer' }, type: { type: 'string' }, seat: nullable({ type: 'string' }), rolls: nullable({ type: 'array' }) } },
    },
    commands: nullable({
      type: 'array',
      items: {
        type: 'object',
        required: ['command', 'firstVersion', 'lastVersion'],
        properties: { seat: nullable({ type: 'string' }), firstVersion: { type: 'integer' }, lastVersion: { type: 'integer' } },
      },
    }),
  },
};

const validate = new Ajv({ allErrors: false, strict: false }).compile(schema);

/** Throws BAD_REQUEST, saying which field is wrong, unless `doc` has the shape of an export. */
export function assertExportShape(doc: unknown): void {
  if (validate(doc)) return;
  const e = validate.errors?.[0];
  const where = e?.instancePath ? e.instancePath : 'the document';
  throw new AppError('BAD_REQUEST', `This is not an export document (format wargame-service/export@1): ${where} ${e?.message ?? 'is malformed'}`);
}
