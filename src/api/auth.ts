/**
 * Bearer tokens: `Authorization: Bearer <token>` (over WebSocket, `authorization` in the
 * connection_init payload). No header: a spectator. The application decides what the
 * token stands for.
 */
import type { Actor } from '../app/actors.ts';
import type { Application } from '../app/application.ts';
import { AppError } from '../app/errors.ts';

export function bearerToken(header: unknown): string | null {
  if (header === undefined || header === null || header === '') return null;
  if (typeof header !== 'string') throw new AppError('UNAUTHENTICATED', 'The Authorization header must be "Bearer <seat token>"');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw new AppError('UNAUTHENTICATED', 'The Authorization header must be "Bearer <seat token>"');
  return match[1]!;
}

export function actorFor(app: Application, header: unknown): Promise<Actor> {
  return app.authenticate(bearerToken(header));
}
