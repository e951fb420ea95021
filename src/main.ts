/** `npm start`: the service with the hosted games (see src/server.ts). */
import { startService } from './server.ts';

await startService(async () => (await import('./domain/games.ts')).games);
