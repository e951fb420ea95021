/**
 * The configuration is validated before anything starts, and a wrong value names its variable.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

function problem(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('gives the documented defaults for an empty environment', () => {
    expect(loadConfig({})).toEqual({
      port: 4000,
      host: '127.0.0.1',
      databaseUrl: undefined,
      databasePoolSize: 10,
      databaseDirectUrl: undefined,
      databasePreparedStatements: true,
      databaseGroupCommit: true,
      databaseReplicaUrl: undefined,
      embeddedPgData: undefined,
      logLevel: 'info',
      rateLimitMax: 600,
      registrationRateLimit: 10,
      maxEventLoopDelay: 1000,
      nodeEnv: undefined,
      graphiql: true,
      webConcurrency: 1,
      trustProxy: false,
      workers: true,
      queuePollMs: 2_000,
      queueHeartbeatMs: 10_000,
      queueDeadAfterMs: 60_000,
      queueClockHeartbeatMs: 1_000,
      queueClockDeadAfterMs: 5_000,
      queueDeliveryConcurrency: 8,
      publicUrl: undefined,
      smtpUrl: undefined,
      mailFrom: undefined,
      mailInboundPort: undefined,
      mailInboundHost: '127.0.0.1',
      mailReplyDomain: undefined,
      mailInboundSecret: undefined,
      webhookAllowPrivate: false,
      webhookSecretKey: undefined,
      absenceDaysPerYear: 30,
      digestTime: '07:00',
    });
  });

  it('reads play by mail: the listener, the reply domain (default: MAIL_FROM\'s) and the inbound secret, never echoed', () => {
    const c = loadConfig({ MAIL_INBOUND_PORT: '2525', MAIL_FROM: 'Wargames <games@play.example.org>', MAIL_INBOUND_SECRET: 'sixteen-chars-or-more' });
    expect([c.mailInboundPort, c.mailInboundHost, c.mailReplyDomain, c.mailInboundSecret]).toEqual([2525, '127.0.0.1', 'play.example.org', 'sixteen-chars-or-more']);
    expect(loadConfig({ MAIL_FROM: 'games@example.org', MAIL_REPLY_DOMAIN: 'reply.example.org' }).mailReplyDomain).toBe('reply.example.org');
    expect(() => loadConfig({ MAIL_INBOUND_SECRET: 'short-secret' })).toThrow(/MAIL_INBOUND_SECRET/);
    try {
      loadConfig({ MAIL_INBOUND_SECRET: 'short-secret' });
    } catch (error) {
      expect((error as Error).message).not.toContain('short-secret');
    }
  });

  it('reads WEBHOOK_SECRET_KEY as 32 bytes, hex or base64', () => {
    const key = Buffer.alloc(32, 7);
    expect(loadConfig({ WEBHOOK_SECRET_KEY: key.toString('hex') }).webhookSecretKey).toEqual(key);
    expect(loadConfig({ WEBHOOK_SECRET_KEY: key.toString('base64') }).webhookSecretKey).toEqual(key);
    expect(loadConfig({ WEBHOOK_SECRET_KEY: key.toString('base64url') }).webhookSecretKey).toEqual(key);
  });

  it('reads every variable, typed', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      DATABASE_URL: 'postgresql://user:pass@db:5432/wargames',
      DATABASE_POOL_SIZE: '20',
      EMBEDDED_PG_DATA: '/var/lib/pg',
      LOG_LEVEL: 'debug',
      RATE_LIMIT_MAX: '100',
      NODE_ENV: 'production',
      WEB_CONCURRENCY: '4',
      TRUST_PROXY: '10.0.0.0/8,::1',
      WORKERS: 'false',
      PUBLIC_URL: 'https://wargames.example.org',
      SMTP_URL: 'smtps://mailer:secret@smtp.example.org:465',
      MAIL_FROM: 'Wargames <no-reply@example.org>',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      DIGEST_TIME: '18:30',
    });
    expect(config).toMatchObject({ port: 8080, host: '0.0.0.0', databasePoolSize: 20, logLevel: 'debug', rateLimitMax: 100, graphiql: false });
    expect(config).toMatchObject({ webConcurrency: 4, trustProxy: ['10.0.0.0/8', '::1'], workers: false, webhookAllowPrivate: true, digestTime: '18:30' });
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
  });

  it('treats an empty value as unset', () => {
    expect(loadConfig({ PORT: '', LOG_LEVEL: '' })).toMatchObject({ port: 4000, logLevel: 'info' });
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['LOG_LEVEL', 'bogus'],
    ['RATE_LIMIT_MAX', 'abc'],
    ['RATE_LIMIT_MAX', '0'],
    ['DATABASE_URL', 'not-a-url'],
    ['DATABASE_URL', 'mysql://db/wargames'],
    ['DATABASE_POOL_SIZE', '-1'],
    ['WEB_CONCURRENCY', 'many'],
    ['TRUST_PROXY', 'yes'],
    ['TRUST_PROXY', '10.0.0.0/99'],
    ['WORKERS', 'maybe'],
    ['PUBLIC_URL', 'wargames.example.org'],
    ['SMTP_URL', 'http://smtp.example.org'],
    ['MAIL_FROM', 'nobody'],
    ['WEBHOOK_ALLOW_PRIVATE', 'sometimes'],
    ['DIGEST_TIME', '7am'],
    ['DIGEST_TIME', '24:00'],
    ['WEBHOOK_SECRET_KEY', 'short'],
  ])('refuses %s=%s and names the variable', (variable, value) => {
    expect(problem({ [variable]: value })).toMatch(new RegExp(`^Invalid configuration: ${variable} `));
  });

  it('names every wrong variable at once', () => {
    const message = problem({ PORT: 'abc', LOG_LEVEL: 'bogus' });
    expect(message).toContain('PORT');
    expect(message).toContain('LOG_LEVEL');
  });

  it('never repeats a value that may hold a password', () => {
    expect(problem({ DATABASE_URL: 'mysql://user:hunter2@db/x' })).not.toContain('hunter2');
    expect(problem({ WEBHOOK_SECRET_KEY: 'hunter2hunter2' })).not.toContain('hunter2');
  });
});

describe('npm start with a bad environment', () => {
  function start(env: Record<string, string>): Promise<{ code: number | null; stderr: string; stdout: string; ms: number }> {
    const began = Date.now();
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        cwd: root,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      let stdout = '';
      child.stderr.on('data', (chunk) => (stderr += chunk));
      child.stdout.on('data', (chunk) => (stdout += chunk));
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      child.on('error', reject);
      child.on('exit', (code) => {
        clearTimeout(timer);
        resolve({ code, stderr, stdout, ms: Date.now() - began });
      });
    });
  }

  it.each([
    ['PORT', 'abc'],
    ['LOG_LEVEL', 'bogus'],
    ['RATE_LIMIT_MAX', 'abc'],
    ['DATABASE_URL', 'not-a-url'],
  ])('%s=%s exits non-zero at once, before any database starts, naming the variable', async (variable, value) => {
    const { code, stderr, stdout, ms } = await start({ [variable]: value });
    expect(code).toBe(1);
    expect(stderr).toMatch(new RegExp(`Invalid configuration: ${variable} `));
    // The database's start is logged (pino) to stdout, not stderr.
    expect(stdout + stderr).not.toContain('embedded PostgreSQL');
    // Loading tsx and the config module only, no database: well under the 7 s it took before.
    expect(ms).toBeLessThan(10_000);
  });
});
