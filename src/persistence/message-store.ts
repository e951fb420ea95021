/**
 * Messages between players on PostgreSQL (src/app/ports-messages.ts). One statement counts
 * the sender's message in its window (the row lock of the upsert orders concurrent senders
 * on every process), stores the message if the count allows it, and adds its jobs: a
 * message's fan-out exists if and only if the message does. What a reader may read is
 * filtered in the query.
 */
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { JobChange, MessageRecord, MessageStore as MessagePort, NewMessage } from '../app/ports.ts';
import { jobJson, jobsSql } from './jobs.ts';

interface MessageRow { id: string; game_id: string; seq: string; from_seat: string; to_seats: string[] | null; text: string; created_at: Date }

// seq comes out as text (a bigint): order by the column, messages.seq, never by this alias.
const COLUMNS = 'id::text, game_id::text, seq::text, from_seat, to_seats, text, created_at';
const record = (r: MessageRow): MessageRecord => ({ id: r.id, gameId: r.game_id, seq: Number(r.seq), from: r.from_seat, to: r.to_seats, text: r.text, at: r.created_at });

export class MessageStore implements MessagePort {
  constructor(private readonly prisma: PrismaClient) {}

  async send(message: NewMessage, sender: string, limit: { count: number; seconds: number }, jobs: JobChange[]) {
    const rows = await this.prisma.$queryRawUnsafe<(Partial<MessageRow> & { count: number; resets_at: Date })[]>(
      `WITH counted AS (
         INSERT INTO message_limits AS l (sender, window_start, count) VALUES ($1, now(), 1)
         ON CONFLICT (sender) DO UPDATE SET
           window_start = CASE WHEN l.window_start <= now() - make_interval(secs => $2::float8) THEN now() ELSE l.window_start END,
           count = CASE WHEN l.window_start <= now() - make_interval(secs => $2::float8) THEN 1 ELSE l.count + 1 END
         RETURNING count, window_start
       ), stored AS (
         INSERT INTO messages (id, game_id, from_seat, to_seats, text)
         SELECT $4::uuid, $5::uuid, $6, $7::text[], $8 FROM counted WHERE counted.count <= $3::int
         RETURNING ${COLUMNS}
       ), g AS (
         SELECT games.id, games.player_ids FROM games JOIN stored ON games.id = stored.game_id::uuid
       ), jobs AS (${jobsSql('$9', 'g')})
       SELECT c.count, c.window_start + make_interval(secs => $2::float8) AS resets_at, s.*, (SELECT count(*) FROM jobs)::int AS jobs
       FROM counted c LEFT JOIN stored s ON true`,
      sender, limit.seconds, limit.count, message.id, message.gameId, message.from, message.to, message.text, JSON.stringify(jobs.map(jobJson)),
    );
    const r = rows[0]!;
    return { stored: r.id ? record(r as MessageRow) : null, count: r.count, resetsAt: r.resets_at };
  }

  async message(gameId: string, id: string) {
    const rows = await this.prisma.$queryRawUnsafe<MessageRow[]>(`SELECT ${COLUMNS} FROM messages WHERE game_id = $1::uuid AND id = $2::uuid`, gameId, id);
    return rows[0] ? record(rows[0]) : null;
  }

  async lastSeq(gameId: string) {
    const rows = await this.prisma.$queryRawUnsafe<{ seq: string | null }[]>(`SELECT max(seq)::text AS seq FROM messages WHERE game_id = $1::uuid`, gameId);
    return Number(rows[0]?.seq ?? 0);
  }

  async readable(gameId: string, seats: string[], afterSeq: number, first: number) {
    const rows = await this.prisma.$queryRawUnsafe<MessageRow[]>(
      `SELECT ${COLUMNS} FROM messages
       WHERE game_id = $1::uuid AND seq > $3::bigint AND (to_seats IS NULL OR from_seat = ANY($2::text[]) OR to_seats && $2::text[])
       ORDER BY messages.seq LIMIT $4::int`,
      gameId, seats, afterSeq, first,
    );
    return rows.map(record);
  }
}
