/**
 * The service's configuration: every environment variable it reads, validated once at start
 * (env-schema, a JSON Schema) so that a wrong value stops the process before anything starts,
 * with a message that names the variable. The README's "Configuration" table documents each.
 */
import addFormats from 'ajv-formats';
import envSchema from 'env-schema';
import { isIP } from 'node:net';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Config {
  port: number;
  host: string;
  /** Unset: the embedded PostgreSQL. */
  databaseUrl: string | undefined;
  databasePoolSize: number;
  /** Bypasses a connection pooler for LISTEN, the job queue and migrations (unset: databaseUrl). */
  databaseDirectUrl: string | undefined;
  /** Named prepared statements for the store's frequent statements (off behind PgBouncer < 1.21 in transaction mode). */
  databasePreparedStatements: boolean;
  /** Whether the appends of several games made at once share a statement (off where the database is sharded by game). */
  databaseGroupCommit: boolean;
  /** A streaming replica for the reads that tolerate lag (unset: every read on the primary). */
  databaseReplicaUrl: string | undefined;
  /** Where the embedded PostgreSQL keeps its data; unset: the default folder (.data/pg). */
  embeddedPgData: string | undefined;
  logLevel: LogLevel;
  rateLimitMax: number;
  /** Player registrations a minute per address. */
  registrationRateLimit: number;
  /** Event-loop delay (ms) past which requests are answered 503 UNAVAILABLE; 0: never. */
  maxEventLoopDelay: number;
  nodeEnv: string | undefined;
  /** GraphiQL is served unless NODE_ENV is production. */
  graphiql: boolean;
  /** Server processes to run (reserved: one process today). */
  webConcurrency: number;
  /** fastify's trustProxy: false, true, a number of hops, or a list of addresses and CIDR ranges. */
  trustProxy: boolean | number | string[];
  /** Run the job queue's workers in this process. */
  workers: boolean;
  /** The job queue's timing (ms): poll for missed jobs, say this runner lives, take a silent runner for dead. */
  queuePollMs: number;
  queueHeartbeatMs: number;
  queueDeadAfterMs: number;
  /** The clocks' lane: its runners beat this often and are dead after this long (ms). */
  queueClockHeartbeatMs: number;
  queueClockDeadAfterMs: number;
  /** The delivery lane's runners: how many webhooks (and mails) are served at once by this process. */
  queueDeliveryConcurrency: number;
  /** Delivery jobs the delivery lane fetches (and locks) at once; unset: its runners and one more; 0 or 1: one a runner. */
  queueDeliveryLocalQueue: number | undefined;
  /** The service's public base URL, for links it sends out (mail, webhooks). */
  publicUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string | undefined;
  /** Play by mail: the SMTP listener's port (unset: none) and address. */
  mailInboundPort: number | undefined;
  mailInboundHost: string;
  /** The domain of reply addresses (default: MAIL_FROM's). */
  mailReplyDomain: string | undefined;
  /** The bearer secret of POST /api/mail/inbound (unset: the route answers 404). */
  mailInboundSecret: string | undefined;
  /** Allow webhooks to private, loopback and link-local addresses. */
  webhookAllowPrivate: boolean;
  /** 32 bytes: encrypts webhook secrets, signs unsubscribe links (unset: see src/server.ts). */
  webhookSecretKey: Buffer | undefined;
  /** Days of absence (clocks standing still) a player may take each calendar year. */
  absenceDaysPerYear: number;
  /** When the daily digest goes out, "HH:MM" UTC (DIGEST_TIME, default 07:00). */
  digestTime: string;
}

/** The variables as they come from the environment: strings, or unset. */
const schema = {
  type: 'object',
  properties: {
    PORT: { type: 'integer', minimum: 0, maximum: 65535, default: 4000 },
    HOST: { type: 'string', minLength: 1, default: '127.0.0.1' },
    DATABASE_URL: { type: 'string', format: 'uri', pattern: '^postgres(ql)?://' },
    DATABASE_POOL_SIZE: { type: 'integer', minimum: 1, maximum: 1000, default: 10 },
    DATABASE_DIRECT_URL: { type: 'string', format: 'uri', pattern: '^postgres(ql)?://' },
    DATABASE_PREPARED_STATEMENTS: { type: 'boolean', default: true },
    DATABASE_GROUP_COMMIT: { type: 'boolean', default: true },
    DATABASE_REPLICA_URL: { type: 'string', format: 'uri', pattern: '^postgres(ql)?://' },
    EMBEDDED_PG_DATA: { type: 'string', minLength: 1 },
    LOG_LEVEL: { type: 'string', enum: [...LOG_LEVELS], default: 'info' },
    RATE_LIMIT_MAX: { type: 'integer', minimum: 1, default: 600 },
    REGISTRATION_RATE_LIMIT: { type: 'integer', minimum: 1, default: 10 },
    MAX_EVENT_LOOP_DELAY: { type: 'integer', minimum: 0, default: 1000 },
    NODE_ENV: { type: 'string' },
    WEB_CONCURRENCY: { type: 'integer', minimum: 1, maximum: 256, default: 1 },
    TRUST_PROXY: { type: 'string', default: 'false' },
    WORKERS: { type: 'boolean', default: true },
    QUEUE_POLL_MS: { type: 'integer', minimum: 50, maximum: 600_000, default: 2_000 },
    QUEUE_HEARTBEAT_MS: { type: 'integer', minimum: 100, maximum: 600_000, default: 10_000 },
    QUEUE_DEAD_AFTER_MS: { type: 'integer', minimum: 1_000, maximum: 86_400_000, default: 60_000 },
    QUEUE_CLOCK_HEARTBEAT_MS: { type: 'integer', minimum: 100, maximum: 600_000, default: 1_000 },
    QUEUE_CLOCK_DEAD_AFTER_MS: { type: 'integer', minimum: 1_000, maximum: 86_400_000, default: 5_000 },
    QUEUE_DELIVERY_CONCURRENCY: { type: 'integer', minimum: 1, maximum: 64, default: 8 },
    QUEUE_DELIVERY_LOCAL_QUEUE: { type: 'integer', minimum: 0, maximum: 1000 },
    PUBLIC_URL: { type: 'string', format: 'uri', pattern: '^https?://' },
    SMTP_URL: { type: 'string', format: 'uri', pattern: '^smtps?://' },
    // An address, or a display name and an address in angle brackets.
    MAIL_FROM: { type: 'string', pattern: '^([^<>]*<[^\\s@<>]+@[^\\s@<>]+>|[^\\s@<>]+@[^\\s@<>]+)$' },
    MAIL_INBOUND_PORT: { type: 'integer', minimum: 0, maximum: 65535 },
    MAIL_INBOUND_HOST: { type: 'string', minLength: 1, default: '127.0.0.1' },
    MAIL_REPLY_DOMAIN: { type: 'string', pattern: '^[A-Za-z0-9.-]+$' },
    MAIL_INBOUND_SECRET: { type: 'string', minLength: 16 },
    WEBHOOK_ALLOW_PRIVATE: { type: 'boolean', default: false },
    ABSENCE_DAYS_PER_YEAR: { type: 'integer', minimum: 0, maximum: 366, default: 30 },
    DIGEST_TIME: { type: 'string', pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', default: '07:00' },
    // 32 bytes, as 64 hex digits or 43/44 base64 characters.
    WEBHOOK_SECRET_KEY: { type: 'string', pattern: '^([0-9a-fA-F]{64}|[A-Za-z0-9+/_-]{43}=?)$' },
  },
} as const;

/** Values that may carry a password are never repeated in an error message. */
const SECRET = new Set(['DATABASE_URL', 'DATABASE_DIRECT_URL', 'DATABASE_REPLICA_URL', 'SMTP_URL', 'WEBHOOK_SECRET_KEY', 'MAIL_INBOUND_SECRET']);

const HINT: Record<string, string> = {
  DATABASE_URL: 'a postgresql:// URL, e.g. postgresql://user:pass@host:5432/wargames',
  DATABASE_DIRECT_URL: 'a postgresql:// URL that bypasses the pooler',
  DATABASE_PREPARED_STATEMENTS: 'true or false',
  DATABASE_GROUP_COMMIT: 'true or false',
  DATABASE_REPLICA_URL: 'a postgresql:// URL of a streaming replica',
  PUBLIC_URL: 'an http:// or https:// URL',
  SMTP_URL: 'an smtp:// or smtps:// URL',
  MAIL_FROM: 'an address, or "Name <address>"',
  MAIL_REPLY_DOMAIN: 'a domain name, e.g. play.example.org',
  MAIL_INBOUND_SECRET: 'at least 16 characters, e.g. `openssl rand -base64 24`',
  LOG_LEVEL: LOG_LEVELS.join(', '),
  WORKERS: 'true or false',
  WEBHOOK_ALLOW_PRIVATE: 'true or false',
  DIGEST_TIME: 'a time of day HH:MM in UTC, e.g. 07:00',
  WEBHOOK_SECRET_KEY: '32 random bytes as 64 hex digits or base64 (e.g. `openssl rand -base64 32`)',
};

export class ConfigError extends Error {
  constructor(readonly problems: { variable: string; message: string }[]) {
    super(`Invalid configuration: ${problems.map((p) => `${p.variable} ${p.message}`).join('; ')}`);
    this.name = 'ConfigError';
  }
}

type Raw = Record<string, string | number | boolean | undefined>;

function parseTrustProxy(value: string): Config['trustProxy'] | null {
  const v = value.trim().toLowerCase();
  if (v === 'false' || v === '0') return false;
  if (v === 'true') return true;
  if (/^[0-9]+$/.test(v)) return Number(v); // hops
  const list = value.split(',').map((s) => s.trim());
  const ok = list.every((entry) => {
    const [address, bits, ...rest] = entry.split('/');
    if (rest.length || !isIP(address)) return false;
    if (bits === undefined) return true;
    return /^[0-9]{1,3}$/.test(bits) && Number(bits) <= (isIP(address) === 4 ? 32 : 128);
  });
  return ok ? list : null;
}

/** Validates `env` (default: process.env); throws a ConfigError naming each wrong variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty value (`PORT=` in a compose file) means unset, as the defaults say.
  const data = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  let raw: Raw;
  try {
    raw = envSchema<Raw>({
      schema: structuredClone(schema) as never,
      data,
      env: false,
      ajv: { customOptions: (ajv) => (addFormats as unknown as (a: typeof ajv) => typeof ajv)(ajv) },
    });
  } catch (error) {
    const errors = (error as { errors?: { instancePath: string; message?: string; params?: { missingProperty?: string } }[] }).errors;
    if (!errors) throw error;
    const seen = new Set<string>();
    const problems = errors
      .map((e) => {
        const variable = e.instancePath.replace(/^\//, '') || e.params?.missingProperty || '(environment)';
        const given = data[variable];
        const got = given === undefined || SECRET.has(variable) ? '' : ` (got ${JSON.stringify(given.length > 60 ? `${given.slice(0, 60)}…` : given)})`;
        const hint = HINT[variable] ? `: expected ${HINT[variable]}` : '';
        return { variable, message: `${e.message ?? 'is invalid'}${hint}${got}` };
      })
      .filter((p) => !seen.has(p.variable) && seen.add(p.variable));
    throw new ConfigError(problems);
  }
  const trustProxy = parseTrustProxy(String(raw.TRUST_PROXY));
  if (trustProxy === null) {
    throw new ConfigError([
      {
        variable: 'TRUST_PROXY',
        message: `must be true, false, a number of hops or a comma-separated list of addresses or CIDR ranges (got ${JSON.stringify(raw.TRUST_PROXY)})`,
      },
    ]);
  }
  const nodeEnv = raw.NODE_ENV as string | undefined;
  return {
    port: raw.PORT as number,
    host: raw.HOST as string,
    databaseUrl: raw.DATABASE_URL as string | undefined,
    databasePoolSize: raw.DATABASE_POOL_SIZE as number,
    databaseDirectUrl: raw.DATABASE_DIRECT_URL as string | undefined,
    databasePreparedStatements: raw.DATABASE_PREPARED_STATEMENTS as boolean,
    databaseGroupCommit: raw.DATABASE_GROUP_COMMIT as boolean,
    databaseReplicaUrl: raw.DATABASE_REPLICA_URL as string | undefined,
    embeddedPgData: raw.EMBEDDED_PG_DATA as string | undefined,
    logLevel: raw.LOG_LEVEL as LogLevel,
    rateLimitMax: raw.RATE_LIMIT_MAX as number,
    registrationRateLimit: raw.REGISTRATION_RATE_LIMIT as number,
    maxEventLoopDelay: raw.MAX_EVENT_LOOP_DELAY as number,
    nodeEnv,
    graphiql: nodeEnv !== 'production',
    webConcurrency: raw.WEB_CONCURRENCY as number,
    trustProxy,
    workers: raw.WORKERS as boolean,
    queuePollMs: raw.QUEUE_POLL_MS as number,
    queueHeartbeatMs: raw.QUEUE_HEARTBEAT_MS as number,
    queueDeadAfterMs: raw.QUEUE_DEAD_AFTER_MS as number,
    queueClockHeartbeatMs: raw.QUEUE_CLOCK_HEARTBEAT_MS as number,
    queueClockDeadAfterMs: raw.QUEUE_CLOCK_DEAD_AFTER_MS as number,
    queueDeliveryConcurrency: raw.QUEUE_DELIVERY_CONCURRENCY as number,
    queueDeliveryLocalQueue: raw.QUEUE_DELIVERY_LOCAL_QUEUE as number | undefined,
    publicUrl: raw.PUBLIC_URL as string | undefined,
    smtpUrl: raw.SMTP_URL as string | undefined,
    mailFrom: raw.MAIL_FROM as string | undefined,
    mailInboundPort: raw.MAIL_INBOUND_PORT as number | undefined,
    mailInboundHost: raw.MAIL_INBOUND_HOST as string,
    mailReplyDomain: (raw.MAIL_REPLY_DOMAIN as string | undefined) ?? /@([^\s@<>]+)>?\s*$/.exec((raw.MAIL_FROM as string | undefined) ?? '')?.[1],
    mailInboundSecret: raw.MAIL_INBOUND_SECRET as string | undefined,
    webhookAllowPrivate: raw.WEBHOOK_ALLOW_PRIVATE as boolean,
    webhookSecretKey: raw.WEBHOOK_SECRET_KEY === undefined ? undefined : parseKey(String(raw.WEBHOOK_SECRET_KEY)),
    absenceDaysPerYear: raw.ABSENCE_DAYS_PER_YEAR as number,
    digestTime: raw.DIGEST_TIME as string,
  };
}

function parseKey(value: string): Buffer {
  return /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
}
