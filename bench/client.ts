/**
 * A lean HTTP client for the load loops (node:http with keep-alive): fetch's own
 * overhead would otherwise be a large share of what the bench measures.
 */
import http from 'node:http';

const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });

export interface Answer {
  status: number;
  text: string;
  json(): any;
  headers: http.IncomingHttpHeaders;
}

export function request(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
  opts: { fresh?: boolean } = {},
): Promise<Answer> {
  const url = new URL(path, base);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method,
        agent: opts.fresh ? false : agent,
        headers: {
          ...(payload !== undefined ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(opts.fresh ? { connection: 'close' } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, text, json: () => JSON.parse(text), headers: res.headers });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** BENCH_CLIENT=fetch: GraphQL requests go through fetch (undici, keep-alive), as a browser or a bot would send them. */
const useFetch = process.env.BENCH_CLIENT === 'fetch';

/** A GraphQL request; resolves to the HTTP status and the parsed body. */
export async function gql(base: string, query: string, variables: Record<string, unknown>, token?: string): Promise<{ status: number; body: any }> {
  if (useFetch) {
    const r = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ query, variables }),
    });
    return { status: r.status, body: await r.json() };
  }
  const a = await request(base, 'POST', '/graphql', { query, variables }, token);
  return { status: a.status, body: a.json() };
}
