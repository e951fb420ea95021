/** The game types this service hosts. */
import type { GameModule } from './kernel/index.ts';

export const games: GameModule[] = [];
