/** Clients of the scaling tests: the guessing game through REST, north then east each round. */
export const SEATS = ['north', 'east'] as const;

export interface Game {
  id: string;
  tokens: Record<string, string>;
}

export async function call(base: string, method: string, path: string, body?: unknown, token?: string, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: parsed };
}

export async function createGuessing(base: string, target = 1_000_000): Promise<Game> {
  const r = await call(base, 'POST', '/api/games', { type: 'guessing-game', options: { target }, seats: SEATS.map((seat) => ({ seat, name: seat })) });
  if (r.status !== 201) throw new Error(`POST /api/games answered ${r.status}: ${JSON.stringify(r.body).slice(0, 300)}`);
  return { id: r.body.game.id, tokens: Object.fromEntries(r.body.seatTokens.map((t: { seat: string; token: string }) => [t.seat, t.token])) };
}

/** The `i`th command of a game (0-based): whose seat and its idempotency key. */
export function nth(game: Game, i: number): { seat: string; token: string; key: string } {
  const seat = SEATS[i % 2]!;
  return { seat, token: game.tokens[seat]!, key: `${game.id}-${i}` };
}
