/** `npm run worker`: the workers alone (the job queue's tasks), no HTTP (see src/server.ts). */
import { startService } from './server.ts';

await startService(async () => (await import('./domain/games.ts')).games, 'worker');
