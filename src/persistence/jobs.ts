/**
 * Jobs of the queue (graphile-worker, src/persistence/queue.ts) added in SQL, inside a
 * statement of the store: the append adds its jobs in its own statement, so a job exists
 * if and only if the command was stored.
 */

import type { JobChange } from '../app/ports.ts';

export type { JobChange, JobRemoval, JobSpec } from '../app/ports.ts';

/** The JSON a statement's jobs parameter carries for each change. */
export function jobJson(change: JobChange): Record<string, unknown> {
  if ('removeKey' in change) return { removeKey: change.removeKey };
  return {
    task: change.task, payload: change.payload ?? {}, key: change.key ?? null, runAt: change.runAt?.toISOString() ?? null,
    runAfterSeconds: change.runAfterSeconds ?? null, maxAttempts: change.maxAttempts ?? null, priority: change.priority ?? null, when: change.when ?? null,
    queueName: change.queueName ?? null,
  };
}

/** Someone listens to the game `g`: an enabled webhook on it or on one of its players. */
export const listened = (g: string) =>
  `EXISTS (SELECT 1 FROM webhooks w WHERE w.disabled_at IS NULL AND (w.game_id = ${g}.id OR (w.game_id IS NULL AND w.player_id = ANY(${g}.player_ids))))`;
/** A player of the game `g` wants mail (and can get it). */
export const wantsMail = (g: string) =>
  `(cardinality(${g}.player_ids) > 0 AND EXISTS (SELECT 1 FROM players p WHERE p.id = ANY(${g}.player_ids) AND p.notify_by_email AND p.email_verified AND p.email IS NOT NULL))`;
/**
 * Someone listens to the game `g` now: a webhook, or a player who gets mail. The outbox rows a
 * commit writes keep it (`heard`), and the dispatcher reads only those.
 */
export const heard = (g: string) => `(${listened(g)} OR ${wantsMail(g)})`;

/**
 * A CTE body adding (or removing) the jobs of the jsonb array parameter `param` (built with
 * jobJson) for the game `game` (a relation with its id and player_ids), in the statement
 * that commits it. `runAfterSeconds` counts from the statement's now(): the database's
 * clock, rounded to the millisecond as the outbox rows' created_at is (a deadline is read
 * from that column). A job with `when` is added only if someone listens. Each row names its
 * game (`game_id`: a statement may commit several). Reference the CTE from the statement's
 * final SELECT, or PostgreSQL never runs it. An empty array adds nothing (and NOTIFYs nobody).
 */
export function jobsSql(param: string, game: string): string {
  return `SELECT CASE WHEN x ? 'removeKey' THEN (graphile_worker.remove_job(x->>'removeKey')).id
      ELSE (graphile_worker.add_job(x->>'task', (x->'payload')::json,
        run_at => COALESCE((x->>'runAt')::timestamptz, now()::timestamptz(3) + make_interval(secs => (x->>'runAfterSeconds')::float8)),
        max_attempts => (x->>'maxAttempts')::int, job_key => x->>'key', priority => (x->>'priority')::int, queue_name => x->>'queueName')).id END AS id,
      ${game}.id AS game_id
    FROM ${game}, jsonb_array_elements(${param}::jsonb) AS x
    WHERE x->>'when' IS NULL OR ${listened(game)} OR (x->>'when' = 'listened-or-mail' AND ${wantsMail(game)})`;
}
