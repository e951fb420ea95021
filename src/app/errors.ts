/** The service's stable error codes (docs/api.md, Errors) and the HTTP status each maps to. */
export type ErrorCode =
  | 'BAD_REQUEST'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'NOT_YOUR_TURN'
  | 'ILLEGAL_COMMAND'
  | 'VERSION_CONFLICT'
  | 'GAME_OVER'
  | 'SEAT_TAKEN'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'RATE_LIMITED'
  | 'UNAVAILABLE'
  | 'INTERNAL';

export const HTTP_STATUS: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  NOT_YOUR_TURN: 409,
  VERSION_CONFLICT: 409,
  GAME_OVER: 409,
  SEAT_TAKEN: 409,
  ILLEGAL_COMMAND: 422,
  IDEMPOTENCY_KEY_REUSED: 422,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
};

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }

  get status(): number {
    return HTTP_STATUS[this.code];
  }

  /** graphql-js copies an original error's `extensions` onto the GraphQL error it wraps it in. */
  get extensions(): Record<string, unknown> {
    return this.details;
  }

  /** What a client receives: `extensions` in GraphQL, `error` in REST. */
  get details(): Record<string, unknown> {
    return { code: this.code, ...this.extra };
  }
}

const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'P1001', 'P1002', 'P1008', 'P1017', 'P2024', '57P01', '57P02', '57P03', '53300']);
const UNREACHABLE_KINDS = new Set(['DatabaseNotReachable', 'DatabaseDoesNotExist', 'ConnectionClosed', 'TooManyConnections', 'SocketTimeout', 'TransactionStartTimeout']);

/**
 * Whether an error means the database cannot be reached or is saturated right now: the
 * client should retry (503 UNAVAILABLE), it did nothing wrong and we did not crash.
 */
export function isUnavailable(error: unknown): boolean {
  for (let e = error as { code?: unknown; meta?: { driverAdapterError?: { cause?: { kind?: string; originalCode?: string } } }; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (typeof e.code === 'string' && UNREACHABLE_CODES.has(e.code)) return true;
    const cause = e.meta?.driverAdapterError?.cause;
    if (cause && (UNREACHABLE_KINDS.has(cause.kind ?? '') || UNREACHABLE_CODES.has(cause.originalCode ?? ''))) return true;
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string' && /Can't reach database server|Connection terminated|connect ECONNREFUSED|timeout exceeded when trying to connect/i.test(message)) return true;
  }
  return false;
}

/** How long a client should wait before retrying after UNAVAILABLE, seconds. */
export const RETRY_AFTER_SECONDS = 2;
