/**
 * serviceInfo: what a client asks before showing a form. mailEnabled says whether mail
 * (verification codes, notifications) is configured, on GraphQL and REST alike, and the
 * OpenAPI document describes it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';

let withMail: TestServer;
let without: TestServer;
beforeAll(async () => {
  // Mail on by an SMTP URL; no mail is sent here (no job runs), the switch is what is read.
  withMail = await startTestServer({ rateLimit: 100_000, mailer: { smtpUrl: 'smtp://127.0.0.1:1', from: 'Test <t@localhost>' } });
  without = await startTestServer({ rateLimit: 100_000 });
});
afterAll(async () => {
  await withMail?.close();
  await without?.close();
});

describe('serviceInfo', () => {
  it('says whether mail is configured, on GraphQL and REST', async () => {
    for (const [server, mailEnabled] of [[withMail, true], [without, false]] as const) {
      const gql = await server.gql('{ serviceInfo { mailEnabled } }');
      expect(gql.errors).toBeUndefined();
      expect(gql.data.serviceInfo).toEqual({ mailEnabled });
      const rest = await server.rest('GET', '/api/service-info');
      expect(rest.status).toBe(200);
      expect(rest.body).toEqual({ mailEnabled });
    }
  });

  it('is in the OpenAPI document with its response schema', async () => {
    const doc = (await without.rest('GET', '/docs/json')).body;
    const op = doc.paths['/api/service-info'].get;
    expect(op.operationId).toBe('serviceInfo');
    expect(op.responses['200'].content['application/json'].schema.properties.mailEnabled.type).toBe('boolean');
  });
});
