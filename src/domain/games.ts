/** The game types this service hosts. */
import type { GameModule, JsonSchema } from './kernel/index.ts';
import { chineseWarlords } from './chinese-warlords/index.ts';
import { eventSchema as chineseWarlordsEvents } from './chinese-warlords/event-schema.ts';
import { raidOnWuchao } from './raid-on-wuchao/index.ts';
import { eventSchema as raidOnWuchaoEvents } from './raid-on-wuchao/event-schema.ts';
import { threeKingdoms } from './three-kingdoms-combined-arms/index.ts';
import { eventSchema as threeKingdomsEvents } from './three-kingdoms-combined-arms/event-schema.ts';
import { warchon } from './warchon/index.ts';
import { eventSchema as warchonEvents } from './warchon/event-schema.ts';

/** A game module with the JSON Schema of its events (each game's event-schema.ts). */
const withEvents = (module: GameModule, eventSchema: JsonSchema): GameModule => ({ ...module, eventSchema });

export const games: GameModule[] = [
  withEvents(raidOnWuchao, raidOnWuchaoEvents),
  withEvents(threeKingdoms, threeKingdomsEvents),
  withEvents(chineseWarlords, chineseWarlordsEvents),
  withEvents(warchon, warchonEvents),
];
