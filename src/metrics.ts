/**
 * Prometheus metrics (prom-client), served at GET /metrics. One registry per process: with
 * several server processes, Prometheus scrapes each and sums.
 *
 * The HTTP and GraphQL series are recorded by hooks in src/api/app.ts; the command path
 * records the rest:
 *   metrics.commands.inc({ game_type, outcome })   outcome: 'accepted' or the refusal's code
 *   metrics.appendSeconds.observe(seconds)         one append transaction of a command's events
 *   metrics.subscriptions.inc() / .dec()           open subscriptions (gameEvents, seatsChanged)
 * Label values are always from a closed set (routes, codes, schema field names), never
 * client text, so a client cannot grow the number of series.
 */
import type pg from 'pg';
import client from 'prom-client';

export const registry = new client.Registry();
client.collectDefaultMetrics({ register: registry });

const latencyBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const pools = new Map<pg.Pool, string>();

/** Which server process answered a scrape: with several processes each has its own registry. */
new client.Gauge({ name: 'server_process_info', help: 'The server process that answered (its pid)', labelNames: ['pid'] as const, registers: [registry] }).set({ pid: String(process.pid) }, 1);

export const metrics = {
  httpRequests: new client.Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status code, with their latency',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: latencyBuckets,
    registers: [registry],
  }),
  graphqlOperations: new client.Histogram({
    name: 'graphql_operation_duration_seconds',
    help: 'GraphQL operations over HTTP by type and root fields, with their latency and whether they answered errors',
    labelNames: ['operation_type', 'root_fields', 'outcome'] as const,
    buckets: latencyBuckets,
    registers: [registry],
  }),
  commands: new client.Counter({
    name: 'game_commands_total',
    help: "Commands submitted, by game type and outcome ('accepted' or the refusal's error code)",
    labelNames: ['game_type', 'outcome'] as const,
    registers: [registry],
  }),
  appendSeconds: new client.Histogram({
    name: 'event_append_duration_seconds',
    help: "Time to append one command's events in one transaction",
    buckets: latencyBuckets,
    registers: [registry],
  }),
  subscriptions: new client.Gauge({
    name: 'graphql_subscriptions_open',
    help: 'Open subscriptions (gameEvents, seatsChanged) on this process',
    registers: [registry],
  }),
  pool: new client.Gauge({
    name: 'db_pool_connections',
    help: 'PostgreSQL pool connections by pool and state (total, idle, waiting: clients queued for a connection)',
    labelNames: ['pool', 'state'] as const,
    registers: [registry],
    collect() {
      this.reset();
      const sums = new Map<string, { total: number; idle: number; waiting: number }>();
      for (const [pool, name] of pools) {
        const s = sums.get(name) ?? { total: 0, idle: 0, waiting: 0 };
        s.total += pool.totalCount;
        s.idle += pool.idleCount;
        s.waiting += pool.waitingCount;
        sums.set(name, s);
      }
      for (const [name, s] of sums) for (const [state, value] of Object.entries(s)) this.set({ pool: name, state }, value);
    },
  }),
};

/** Reports a pg pool's use under `name` until the returned function is called. */
export function trackPool(name: string, pool: pg.Pool): () => void {
  pools.set(pool, name);
  return () => {
    pools.delete(pool);
  };
}
