/**
 * The REST mirror of absence (docs/api.md, "Absence"): GET/POST /api/me/absences and
 * DELETE /api/me/absences/:id, as setAbsence, cancelAbsence and `me { absences }`. It only
 * translates: every handler calls the core (src/app/absence.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { Core } from '../app/core.ts';
import { requestActor } from './auth.ts';
import { playerOnly } from './openapi.ts';
import { errors, idParam } from './rest.ts';

const absence = {
  type: 'object', required: ['id', 'from', 'until'],
  properties: { id: { type: 'string' }, from: { type: 'string', format: 'date-time' }, until: { type: 'string', format: 'date-time' } },
} as const;

export async function absenceRoutes(app: FastifyInstance, { application }: { application: Core }) {
  app.get('/api/me/absences', {
    schema: {
      operationId: 'absences', tags: ['players'], summary: "Your absences: this calendar year's and every later one, oldest first",
      security: playerOnly, response: { 200: { type: 'object', required: ['absences'], properties: { absences: { type: 'array', items: absence } } }, ...errors },
    },
  }, async (req) => ({ absences: await application.absences.list(await requestActor(application, req)) }));

  app.post('/api/me/absences', {
    schema: {
      operationId: 'setAbsence', tags: ['players'],
      summary: 'setAbsence: the clocks of your seats stand still from `from` until `until`; refused with the reason (an overlap, a start in the past, over ABSENCE_DAYS_PER_YEAR days a calendar year)',
      body: { type: 'object', required: ['from', 'until'], additionalProperties: false, properties: { from: { type: 'string', description: 'ISO timestamp' }, until: { type: 'string', description: 'ISO timestamp' } } },
      security: playerOnly, response: { 201: absence, ...errors },
    },
  }, async (req, reply) => {
    const set = await application.absences.set(await requestActor(application, req), req.body as { from: string; until: string });
    reply.code(201);
    return set;
  });

  app.delete('/api/me/absences/:id', {
    schema: {
      operationId: 'cancelAbsence', tags: ['players'], summary: 'cancelAbsence: one not begun is gone, one under way ends now', params: idParam,
      security: playerOnly, response: { 200: { type: 'object', required: ['cancelled'], properties: { cancelled: { type: 'boolean' } } }, ...errors },
    },
  }, async (req) => ({ cancelled: await application.absences.cancel(await requestActor(application, req), (req.params as { id: string }).id) }));
}
