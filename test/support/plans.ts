import type pg from 'pg';

/**
 * How the session of `pool` planned its named statements whose text is LIKE `like`: custom plans
 * (built for their values) and runs of the generic plan. pg_prepared_statements shows only the
 * asking session's statements, so `pool` should hold one connection.
 */
export async function plansOf(pool: pg.Pool, like: string): Promise<{ generic: number; custom: number }[]> {
  const { rows } = await pool.query(`SELECT generic_plans::int AS generic, custom_plans::int AS custom FROM pg_prepared_statements WHERE statement LIKE $1`, [like]);
  return rows;
}
