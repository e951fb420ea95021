/**
 * The game types this service hosts: one line per game. Each module carries everything the
 * service serves about it (schemas, view, presentation); see CONTRIBUTING.md, "Adding a game".
 */
import type { GameModule } from './kernel/index.ts';
import { chineseWarlords } from './chinese-warlords/index.ts';
import { raidOnWuchao } from './raid-on-wuchao/index.ts';
import { threeKingdoms } from './three-kingdoms-combined-arms/index.ts';
import { warchon } from './warchon/index.ts';

export const games: GameModule[] = [raidOnWuchao, threeKingdoms, chineseWarlords, warchon];
