/**
 * GraphQL object types for each game's view (the GameView union). A game without one
 * here is served as GenericView { gameType, state }.
 */
import { viewType as chineseWarlords } from './chinese-warlords.ts';
import { viewType as raidOnWuchao } from './raid-on-wuchao.ts';
import { viewType as threeKingdoms } from './three-kingdoms-combined-arms.ts';
import { viewType as warchon } from './warchon.ts';

export interface ViewType {
  gameType: string;
  typeName: string;
  sdl: string;
}

export const viewTypes: ViewType[] = [raidOnWuchao, threeKingdoms, chineseWarlords, warchon];
