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
