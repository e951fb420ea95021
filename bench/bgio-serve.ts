/**
 * The boardgame.io server of the bench's section 8 (bench/bgio.ts), as its own process so
 * that its CPU is measured apart from the clients, as the service's is: boardgame.io 0.50's
 * `Server` (koa, its REST lobby API and socket.io on PORT) with bgio-postgres on
 * DATABASE_URL, its Sequelize pool as large as the service's (DATABASE_POOL_SIZE), no
 * query logging.
 */
import { PostgresStore } from 'bgio-postgres';
import { Origins, Server } from 'boardgame.io/server';
import { bgioGuessing } from './bgio.ts';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL is required');
const db = new PostgresStore(url, { logging: false, pool: { max: Number(process.env.DATABASE_POOL_SIZE ?? 10) } });
const server = Server({ games: [bgioGuessing], db, origins: [Origins.LOCALHOST] });
const servers = await server.run({ port: Number(process.env.PORT ?? 8000) });
// Exit without closing the pool: the clients' disconnects still write their metadata.
const stop = () => {
  server.kill(servers);
  process.exit(0);
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
