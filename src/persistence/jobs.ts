/**
 * Jobs of the queue (graphile-worker, src/workers/queue.ts) added in SQL, inside a
 * statement of the store: the append adds its jobs in its own statement, so a job exists
 * if and only if the command was stored.
 */

/** A job to add: `key` replaces the pending job with that key; `runAt` schedules it. */
export interface JobSpec {
  /** The task's name (as given to Queue.define). */
  task: string;
  payload?: Record<string, unknown>;
  key?: string;
  runAt?: Date;
  maxAttempts?: number;
  /** Lower runs first (default 0). */
  priority?: number;
}

/** Cancels the pending job with this key, if any (a deadline that no longer applies). */
export interface JobRemoval {
  removeKey: string;
}

export type JobChange = JobSpec | JobRemoval;

/** The JSON a statement's jobs parameter carries for each change. */
export function jobJson(change: JobChange): Record<string, unknown> {
  if ('removeKey' in change) return { removeKey: change.removeKey };
  return { task: change.task, payload: change.payload ?? {}, key: change.key ?? null, runAt: change.runAt?.toISOString() ?? null, maxAttempts: change.maxAttempts ?? null, priority: change.priority ?? null };
}

/**
 * A CTE body adding (or removing) the jobs of the jsonb array parameter `param` (built
 * with jobJson), once per row of `from`. Reference it from the statement's final SELECT,
 * or PostgreSQL never runs it. An empty array adds nothing (and NOTIFYs nobody).
 */
export function jobsSql(param: string, from: string): string {
  return `SELECT CASE WHEN x ? 'removeKey' THEN (graphile_worker.remove_job(x->>'removeKey')).id
      ELSE (graphile_worker.add_job(x->>'task', (x->'payload')::json, run_at => (x->>'runAt')::timestamptz,
        max_attempts => (x->>'maxAttempts')::int, job_key => x->>'key', priority => (x->>'priority')::int)).id END AS id
    FROM ${from}, jsonb_array_elements(${param}::jsonb) AS x`;
}

/**
 * A CTE body adding the `notify` job (which turns a commit's outbox rows into deliveries)
 * when someone listens to the game: an enabled webhook on it or on one of its players, or,
 * when `mailParam` is true, a player who wants mail. `game` names a relation with the
 * game's id, version, status and player_ids. Plain SQL in the commit's own statement, so the
 * job exists exactly when the commit does; reference it from the final SELECT.
 */
export function notifyJobSql(game: string, mailParam: string): string {
  return `SELECT (graphile_worker.add_job('notify', json_build_object('gameId', ${game}.id, 'version', ${game}.version, 'status', ${game}.status),
      max_attempts => 25)).id AS id
    FROM ${game}
    WHERE EXISTS (SELECT 1 FROM webhooks w WHERE w.disabled_at IS NULL AND (w.game_id = ${game}.id OR (w.game_id IS NULL AND w.player_id = ANY(${game}.player_ids))))
      OR (${mailParam}::boolean AND cardinality(${game}.player_ids) > 0 AND EXISTS (
        SELECT 1 FROM players p WHERE p.id = ANY(${game}.player_ids) AND p.notify_by_email AND p.email_verified AND p.email IS NOT NULL))`;
}
