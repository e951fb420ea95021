/** The server the bench loads: the hosted games plus the small guessing game its loops play. */
import { startService } from '../src/server.ts';

await startService(async () => [...(await import('../src/domain/games.ts')).games, (await import('../test/support/guessing-game.ts')).guessingGame]);
