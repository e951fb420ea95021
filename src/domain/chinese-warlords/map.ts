/**
 * MAP: "Use a hex grid. Place terrain features as desired."
 *
 * Coordinates: pointy-top hexes in "odd-r" offset coordinates. A hex's id is "col,row"
 * (col 0 at the west edge, row 0 at the north edge); odd rows sit half a hex to the east.
 * Distances and neighbours are computed through axial coordinates.
 */
import type { Random } from '../kernel/index.ts';
import { TERRAIN_IDS, type Terrain } from './data.ts';

export interface Hex {
  id: string;
  col: number;
  row: number;
  terrain: Terrain;
}

/** A map as data: its hexes and the strongholds, one per seat in seat order. */
export interface MapData {
  name: string;
  hexes: Hex[];
  strongholds: string[];
}

export function hexId(col: number, row: number): string {
  return `${col},${row}`;
}

export function parseHexId(id: string): { col: number; row: number } {
  const [c, r] = id.split(',').map(Number);
  return { col: c!, row: r! };
}

function toAxial(col: number, row: number): { q: number; r: number } {
  return { q: col - (row - (row & 1)) / 2, r: row };
}

function fromAxial(q: number, r: number): { col: number; row: number } {
  return { col: q + (r - (r & 1)) / 2, row: r };
}

const DIRECTIONS = [
  [1, 0],
  [1, -1],
  [0, -1],
  [-1, 0],
  [-1, 1],
  [0, 1],
] as const;

/** A hex's axial coordinates, for callers that measure many pairs (axialDistance). */
export function axial(id: string): { q: number; r: number } {
  const { col, row } = parseHexId(id);
  return toAxial(col, row);
}

/** distance, between axial coordinates. */
export function axialDistance(x: { q: number; r: number }, y: { q: number; r: number }): number {
  const dq = x.q - y.q;
  const dr = x.r - y.r;
  return (Math.abs(dq) + Math.abs(dr) + Math.abs(dq + dr)) / 2;
}

/** Hex distance, in hexes (also the range of fire). */
export function distance(a: string, b: string): number {
  return axialDistance(axial(a), axial(b));
}

/** The six ids around a hex (whether or not they are on the map). */
export function neighbourIds(id: string): string[] {
  const { q, r } = axial(id);
  return DIRECTIONS.map(([dq, dr]) => {
    const p = fromAxial(q + dq, r + dr);
    return hexId(p.col, p.row);
  });
}

const indexes = new WeakMap<object, Map<string, Hex>>();

/** Lookup table for a map's hexes (cached per map object; the map itself stays plain JSON). */
export function hexIndex(map: MapData): Map<string, Hex> {
  let index = indexes.get(map.hexes);
  if (!index) {
    index = new Map(map.hexes.map((h) => [h.id, h]));
    indexes.set(map.hexes, index);
  }
  return index;
}

export function terrainAt(map: MapData, id: string): Terrain | null {
  return hexIndex(map).get(id)?.terrain ?? null;
}

const adjacency = new WeakMap<object, Map<string, string[]>>();

/** Neighbours that are on the map (cached per map). */
export function neighbours(map: MapData, id: string): string[] {
  let table = adjacency.get(map.hexes);
  if (!table) {
    const index = hexIndex(map);
    table = new Map(map.hexes.map((h) => [h.id, neighbourIds(h.id).filter((n) => index.has(n))]));
    adjacency.set(map.hexes, table);
  }
  return table.get(id) ?? [];
}

/** Builds a map from rows of letters: . open, = road, p rice paddies, j jungle, ~ water, V village, S stronghold. */
export function mapFromRows(name: string, rows: string[], strongholds?: string[]): MapData {
  const letters: Record<string, Terrain> = { '.': 'open', '=': 'road', p: 'paddies', j: 'jungle', '~': 'water', V: 'village', S: 'stronghold' };
  const hexes: Hex[] = [];
  rows.forEach((line, row) => {
    [...line.replace(/\s+/g, '')].forEach((ch, col) => {
      const terrain = letters[ch];
      if (!terrain) throw new Error(`unknown map letter "${ch}"`);
      hexes.push({ id: hexId(col, row), col, row, terrain });
    });
  });
  return { name, hexes, strongholds: strongholds ?? hexes.filter((h) => h.terrain === 'stronghold').map((h) => h.id) };
}

/** Map data as given in the options: hexes with col,row,terrain, and the strongholds' ids in seat order. */
export interface MapInput {
  name?: string;
  hexes: { col: number; row: number; terrain: Terrain }[];
  strongholds?: string[];
}

/** Checks a given map and completes it (ids, stronghold order). Throws with a readable reason: setup cannot refuse. */
export function mapFromInput(input: MapInput, players: number): MapData {
  const hexes: Hex[] = input.hexes.map((h) => ({ id: hexId(h.col, h.row), col: h.col, row: h.row, terrain: h.terrain }));
  const ids = new Set<string>();
  for (const h of hexes) {
    if (ids.has(h.id)) throw new Error(`the map lists hex ${h.id} twice`);
    if (!TERRAIN_IDS.includes(h.terrain)) throw new Error(`hex ${h.id} has unknown terrain ${h.terrain}`);
    ids.add(h.id);
  }
  const strongholds = input.strongholds ?? hexes.filter((h) => h.terrain === 'stronghold').map((h) => h.id);
  for (const [i, s] of strongholds.entries()) {
    if (strongholds.indexOf(s) !== i) throw new Error(`stronghold ${s} is listed twice: each player has his own`);
    const h = hexes.find((x) => x.id === s);
    if (!h || h.terrain !== 'stronghold') throw new Error(`stronghold ${s} is not a stronghold hex of the map`);
  }
  if (strongholds.length < players) throw new Error(`the map has ${strongholds.length} strongholds for ${players} players`);
  return { name: input.name ?? 'custom map', hexes, strongholds };
}

/**
 * The default two-player map, made by hand after the rulebook's advice: a river from the
 * north edge, forded by the road in the middle, into a lake, villages along it, roads joining the villages and strongholds
 * (the road hex across the river is a ford), rice paddies beside every village, jungle in
 * the corners. Red's stronghold is in the west, Blue's in the east.
 */
export const DEFAULT_MAP: MapData = mapFromRows(
  'The Yellow River Valley (two players)',
  [
    'j j . . . . . ~ . . . j j',
    ' j . . . . . . ~ . . . . j',
    '. . p V . . . ~ V p . . .',
    ' . . . = p V ~ . = . . . .',
    '. S = = = = = = = = = S .',
    ' . . . . . = ~ V p = . . .',
    'j . . . p V ~ ~ . V p . j',
    ' j j . . . . ~ ~ . . . j j',
    'j j j . . . . ~ . . j j j',
  ],
);

export interface GeneratorOptions {
  width: number;
  height: number;
}

/** Number from 0 to n-1 drawn with the game's dice. */
function pick(random: Random, n: number): number {
  return random.die(n) - 1;
}

/**
 * A seeded map generator following the rulebook's advice: "Villages are often near
 * rivers. Roads connect villages. Rice Paddies will be adjacent to villages."
 * Every choice is drawn from the game's dice; the resulting map goes into the setup event.
 */
export function generateMap(random: Random, players: number, opts: GeneratorOptions): MapData {
  const { width, height } = opts;
  const terrain = new Map<string, Terrain>();
  const all: string[] = [];
  for (let row = 0; row < height; row++) for (let col = 0; col < width; col++) {
    terrain.set(hexId(col, row), 'open');
    all.push(hexId(col, row));
  }
  const on = (id: string) => terrain.has(id);
  const around = (id: string) => neighbourIds(id).filter(on);

  // Jungle patches.
  const patches = Math.max(2, Math.floor((width * height) / 30));
  for (let i = 0; i < patches; i++) {
    const seed = all[pick(random, all.length)]!;
    terrain.set(seed, 'jungle');
    for (const n of around(seed)) if (random.die(2) === 1) terrain.set(n, 'jungle');
  }

  // A river from the north edge to the south edge, meandering in the middle third.
  const low = Math.floor(width / 3);
  const high = width - 1 - Math.floor(width / 3);
  let col = low + pick(random, high - low + 1);
  for (let row = 0; row < height; row++) {
    terrain.set(hexId(col, row), 'water');
    const drift = random.die(3) - 2;
    const next = Math.min(high, Math.max(low, col + drift));
    if (next !== col && row < height - 1) {
      // Keep the river continuous when it turns.
      terrain.set(hexId(next, row), 'water');
    }
    col = next;
  }

  // Strongholds: opposite sides for two players, corners for more.
  const targets: [number, number][] =
    players <= 2
      ? [[1, Math.floor(height / 2)], [width - 2, Math.floor(height / 2)]]
      : [[1, 1], [width - 2, height - 2], [width - 2, 1], [1, height - 2]];
  const strongholds: string[] = [];
  for (const [c, r] of targets.slice(0, Math.max(2, players))) {
    const target = hexId(c, r);
    const land = all.filter((h) => terrain.get(h) !== 'water' && !strongholds.includes(h));
    land.sort((a, b) => distance(a, target) - distance(b, target) || all.indexOf(a) - all.indexOf(b));
    strongholds.push(land[0]!);
    terrain.set(land[0]!, 'stronghold');
  }

  // Villages: most by the river, plus one within a few hexes of each stronghold.
  const villages: string[] = [];
  const farFromSites = (h: string, min: number) => [...strongholds, ...villages].every((s) => distance(s, h) >= min);
  const riverVillages = players + 2;
  for (let i = 0; i < riverVillages; i++) {
    const byRiver = (min: number) =>
      all.filter((h) => terrain.get(h) !== 'water' && terrain.get(h) !== 'stronghold' && terrain.get(h) !== 'village' && around(h).some((n) => terrain.get(n) === 'water') && farFromSites(h, min));
    const wide = byRiver(3);
    const candidates = wide.length ? wide : byRiver(2);
    if (!candidates.length) break;
    const v = candidates[pick(random, candidates.length)]!;
    villages.push(v);
    terrain.set(v, 'village');
  }
  for (const s of strongholds) {
    const candidates = all.filter((h) => terrain.get(h) !== 'water' && terrain.get(h) !== 'stronghold' && terrain.get(h) !== 'village' && distance(h, s) >= 2 && distance(h, s) <= 4 && farFromSites(h, 2));
    if (!candidates.length) continue;
    const v = candidates[pick(random, candidates.length)]!;
    villages.push(v);
    terrain.set(v, 'village');
  }

  // Rice paddies beside every village.
  for (const v of villages) {
    const free = around(v).filter((n) => terrain.get(n) === 'open' || terrain.get(n) === 'jungle');
    const count = Math.min(free.length, random.die(2));
    for (let i = 0; i < count; i++) {
      const k = pick(random, free.length);
      terrain.set(free[k]!, 'paddies');
      free.splice(k, 1);
    }
  }

  // Roads connect the villages and strongholds: each site joins the network by its cheapest
  // path; a road across water is a ford.
  const sites = [...strongholds, ...villages];
  const network = new Set<string>([sites[0]!]);
  const joined = new Set<string>([sites[0]!]);
  while (joined.size < sites.length) {
    const path = cheapestRoad(terrain, network, new Set(sites.filter((s) => !joined.has(s))), new Set(sites));
    if (!path) break;
    for (const h of path) {
      const t = terrain.get(h)!;
      if (t !== 'village' && t !== 'stronghold') terrain.set(h, 'road');
      network.add(h);
    }
    joined.add(path[path.length - 1]!);
  }

  // A village whose paddies were all paved gets one back where possible.
  for (const v of villages) {
    if (around(v).some((n) => terrain.get(n) === 'paddies')) continue;
    const spare = around(v).find((n) => terrain.get(n) === 'open' || terrain.get(n) === 'jungle');
    if (spare) terrain.set(spare, 'paddies');
  }

  const hexes: Hex[] = all.map((id) => ({ id, ...parseHexId(id), terrain: terrain.get(id)! }));
  return { name: `generated ${width}x${height}`, hexes, strongholds };
}

/** Dijkstra from the road network to the nearest unjoined site; water and paddies cost more to pave. */
function cheapestRoad(terrain: Map<string, Terrain>, from: Set<string>, targets: Set<string>, sites: Set<string>): string[] | null {
  const cost: Record<Terrain, number> = { open: 2, road: 1, jungle: 3, paddies: 6, water: 5, village: 1, stronghold: 1 };
  const dist = new Map<string, number>();
  const prev = new Map<string, string>();
  const queue: string[] = [...from];
  for (const h of from) dist.set(h, 0);
  while (queue.length) {
    queue.sort((a, b) => dist.get(a)! - dist.get(b)! || (a < b ? -1 : 1));
    const cur = queue.shift()!;
    if (targets.has(cur)) {
      const path = [cur];
      let p = cur;
      while (prev.has(p)) {
        p = prev.get(p)!;
        path.unshift(p);
      }
      return path.filter((h) => !from.has(h) || h === cur);
    }
    // Roads do not run through other sites.
    if (sites.has(cur) && !from.has(cur)) continue;
    for (const n of neighbourIds(cur)) {
      if (!terrain.has(n)) continue;
      const d = dist.get(cur)! + cost[terrain.get(n)!];
      if (d < (dist.get(n) ?? Infinity)) {
        if (!dist.has(n)) queue.push(n);
        dist.set(n, d);
        prev.set(n, cur);
      }
    }
  }
  return null;
}

/** Map checks after the rulebook's advice, used by the tests for the default and generated maps. */
export function mapAdvice(map: MapData) {
  const t = (id: string) => terrainAt(map, id);
  const villages = map.hexes.filter((h) => h.terrain === 'village').map((h) => h.id);
  const byRiver = villages.filter((v) => neighbours(map, v).some((n) => t(n) === 'water'));
  const withPaddies = villages.filter((v) => neighbours(map, v).some((n) => t(n) === 'paddies'));
  // Sites joined by roads: walk over road, village and stronghold hexes only.
  const sites = [...villages, ...map.strongholds];
  const reached = new Set<string>([sites[0]!]);
  const stack = [sites[0]!];
  while (stack.length) {
    const cur = stack.pop()!;
    for (const n of neighbours(map, cur)) {
      const tn = t(n);
      if (!reached.has(n) && (tn === 'road' || tn === 'village' || tn === 'stronghold')) {
        reached.add(n);
        stack.push(n);
      }
    }
  }
  return { villages, byRiver, withPaddies, roadConnected: sites.every((s) => reached.has(s)) };
}
