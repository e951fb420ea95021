/**
 * POST /api/games/verify: the export's bytes go to a worker thread as they came (parsing
 * tens of MiB of JSON on the main thread would hold every other request too), under a rate
 * limit of its own, well below the general one.
 */
import type { FastifyInstance } from 'fastify';
import type { VerifyReport } from '../app/verify.ts';
import { responses } from './openapi.ts';

export async function verifyRoute(app: FastifyInstance, { verify, bodyLimit, rateLimit }: { verify: (body: Uint8Array) => Promise<VerifyReport>; bodyLimit: number; rateLimit: number }) {
  // This route's scope only: the body stays bytes, parsed by the worker.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit }, (_req, body, done) => done(null, body));
  app.post(
    '/api/games/verify',
    {
      bodyLimit,
      config: { rateLimit: { max: rateLimit, timeWindow: 60_000 } },
      schema: {
        tags: ['replay'],
        summary: 'Re-derive every die roll from the seed and re-fold the log of an export',
        description: `Rate limited to ${rateLimit} documents a minute per token or address.`,
        body: { type: 'object', additionalProperties: true },
        response: { 200: responses.verify },
      },
      // The schema documents the body; the worker checks it (a Buffer is no object to ajv).
      validatorCompiler: () => () => true,
    },
    async (req) => verify(req.body as Buffer),
  );
}
