/** Test helpers: build a Chinese Warlords position from a short description, and act with chosen dice. */
import { step, type Command, type GameEvent, type Random } from '../../../src/domain/kernel/index.ts';
import { chineseWarlords, type WarlordsState } from '../../../src/domain/chinese-warlords/index.ts';
import type { UnitType } from '../../../src/domain/chinese-warlords/data.ts';
import { DEFAULT_MAP, mapFromRows, type MapData } from '../../../src/domain/chinese-warlords/map.ts';
import type { Phase, Unit } from '../../../src/domain/chinese-warlords/state.ts';
import { newGame, type Played } from '../../support/play.ts';

export type Game = Played<WarlordsState>;

/** Dice that come up as given, in order; rolling more than given fails the test. */
export function dice(...values: number[]): Random & { used: number[] } {
  const queue = [...values];
  const used: number[] = [];
  return {
    used,
    die(sides: number) {
      if (!queue.length) throw new Error(`no scripted die left for a D${sides}`);
      const v = queue.shift()!;
      if (v < 1 || v > sides) throw new Error(`scripted ${v} does not fit a D${sides}`);
      used.push(v);
      return v;
    },
  };
}

export function mapInput(map: MapData) {
  return { name: map.name, hexes: map.hexes.map(({ col, row, terrain }) => ({ col, row, terrain })), strongholds: map.strongholds };
}

export function rows(...lines: string[]): MapData {
  return mapFromRows('test map', lines);
}

/** "red-3 thugs 1,4" → a unit; passengers with "in red-9". Owner is the id's prefix. */
export function unit(spec: string): Unit {
  const [id, type, hex, inWord, carrier] = spec.split(/\s+/);
  return {
    id: id!,
    type: type as UnitType,
    owner: id!.split('-')[0]!,
    hex: hex!,
    carriedBy: inWord === 'in' ? carrier! : null,
    mpUsed: 0,
    rode: false,
    attackedTurn: 0,
    targetedTurn: 0,
    previousTargetedTurn: 0,
    retreatedTurn: 0,
  };
}

export interface Position {
  map?: MapData;
  seats?: string[];
  units: string[];
  phase: Phase;
  seat?: string | null;
  turn?: number;
  order?: string[];
  treasury?: Record<string, number>;
  /** Ability rolls (default 9: an ability with no effect after setup). */
  abilities?: Record<string, number>;
  control?: Record<string, string>;
  upkeepLosses?: Record<string, number>;
}

/** A game in the described position (the map's strongholds go to the seats in order). */
export function position(p: Position): Game {
  const seats = p.seats ?? ['red', 'blue'];
  const map = p.map ?? DEFAULT_MAP;
  const game = newGame(chineseWarlords, { map: mapInput(map), mapGenerator: null, turnLimit: null }, seats, 'position');
  const s = game.state.game;
  const players: WarlordsState['players'] = {};
  const control: Record<string, string> = {};
  seats.forEach((seat, i) => {
    const roll = p.abilities?.[seat] ?? 9;
    const effect = ({ 1: 'revenue', 2: 'revenue', 3: 'revenue', 4: 'village', 5: 'availability', 6: 'popularity', 7: 'bodyguards', 8: 'mechanics', 9: 'extraIncome', 10: 'extraIncome' } as const)[roll]!;
    players[seat] = { seat, treasury: p.treasury?.[seat] ?? 0, abilityRoll: roll, ability: effect, stronghold: map.strongholds[i]!, out: false, exhausted: [] };
    control[map.strongholds[i]!] = seat;
  });
  const units = p.units.map(unit);
  game.state = {
    ...game.state,
    game: {
      ...s,
      turn: p.turn ?? 1,
      order: p.order ?? seats,
      phase: p.phase,
      seat: p.seat === undefined ? (['recruitment', 'movement', 'combat'].includes(p.phase) ? seats[0]! : null) : p.seat,
      stepDone: false,
      players,
      units,
      nextUnit: 100,
      control: { ...control, ...(p.control ?? {}) },
      upkeepLosses: p.upkeepLosses ?? {},
      villageToChoose: [],
      attack: null,
      defense: null,
      result: null,
    },
  };
  return game;
}

/**
 * Decide a command with the given dice (all of them must be used) through the kernel's
 * turn, as the service does, and apply its events (the kernel's GameEnded included).
 */
export function act(game: Game, seat: string, command: Command, rolls: number[] = []): GameEvent[] {
  const random = dice(...rolls);
  const d = step(chineseWarlords, game.state, command, { kind: 'seat', seat }, { random });
  if (!d.ok) throw new Error(`${seat} ${JSON.stringify(command)} refused: ${d.reason}`);
  if (random.used.length !== rolls.length) throw new Error(`only ${random.used.length} of ${rolls.length} scripted dice were rolled`);
  game.log.push(...d.recorded);
  game.state = d.state;
  return d.recorded.map((r) => r.event);
}

/** The refusal reason, or fails when accepted. */
export function refusal(game: Game, seat: string, command: Command, rolls: number[] = [1, 1, 1, 1, 1, 1]): string {
  const d = step(chineseWarlords, game.state, command, { kind: 'seat', seat }, { random: dice(...rolls) });
  if (d.ok) throw new Error(`${JSON.stringify(command)} was accepted`);
  return d.reason;
}

export function state(game: Game): WarlordsState {
  return game.state.game;
}

export function unitsIn(game: Game, hex: string): string[] {
  return state(game).units.filter((u) => u.hex === hex).map((u) => u.id).sort();
}

export function hexOf(game: Game, id: string): string | undefined {
  return state(game).units.find((u) => u.id === id)?.hex;
}

export function legalOf(game: Game, seat: string): Command[] {
  return chineseWarlords.legalCommands(state(game), seat);
}
