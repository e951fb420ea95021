/**
 * The commands a player sends, their JSON Schema, what each one checks and the events it
 * produces. Every command answers a decision the game waits for (state.pending).
 */
import { commandType, type JsonSchema } from '../kernel/index.ts';
import { hitsLeft, isAerial, label, spreadName, spreadOf, unitsIn } from './battlefield.ts';
import { battleArmy, berserkCandidates } from './combat.ts';
import { assignHit, damageCandidates } from './damage.ts';
import { checkMoveUnit, endMovement, moveUnit } from './movement.ts';
import { checkPlaceUnit, placeUnit } from './setup.ts';
import type { Army, Pending, WarchonCommand, WarchonEvent, WarchonState } from './types.ts';

const unit = { type: 'string', minLength: 1, maxLength: 80 };
const spread = { type: 'integer', minimum: 1, maximum: 99 };
const command = (type: string, properties: Record<string, unknown> = {}) => commandType(type, properties);

export const commandSchema: JsonSchema = {
  oneOf: [
    command('placeUnit', { unit, spread }),
    command('moveUnit', { unit, to: spread }),
    command('endMovement'),
    command('goBerserk', { unit }),
    command('endStrategy'),
    command('commitNumber', { number: { type: 'integer', minimum: 1, maximum: 5 } }),
    command('assignHit', { unit }),
    command('chooseUnit', { unit }),
    command('passChoice'),
    command('commitToBridge', { unit }),
    command('crossBridge'),
    command('retreatUnit', { unit, to: spread }),
    command('destroyUnit', { unit }),
  ],
};

/** Which decision each command answers. */
const ANSWERS: Record<WarchonCommand['type'], Pending['kind']> = {
  placeUnit: 'SETUP',
  moveUnit: 'MOVE',
  endMovement: 'MOVE',
  goBerserk: 'STRATEGY',
  endStrategy: 'STRATEGY',
  commitNumber: 'COMMIT_NUMBER',
  assignHit: 'ALLOCATE_DAMAGE',
  chooseUnit: 'CHOOSE_UNIT',
  passChoice: 'CHOOSE_UNIT',
  commitToBridge: 'MAGIC_BRIDGE',
  crossBridge: 'MAGIC_BRIDGE',
  retreatUnit: 'RETREAT',
  destroyUnit: 'DESTROY_UNIT',
};

/** Units an army may destroy to come back within a spread's Capacity. */
export function overflowCandidates(state: WarchonState, p: Extract<Pending, { kind: 'DESTROY_UNIT' }>): string[] {
  return unitsIn(state, p.spread, p.seat)
    .filter((u) => !u.temporary && !u.reserve && u.fightsFor === null && isAerial(state, u) === p.aerial)
    .map((u) => u.id);
}

export function bridgeCandidates(state: WarchonState): string[] {
  const battle = state.battle;
  if (!battle) return [];
  return battleArmy(state, battle, battle.attacker)
    .filter((u) => !battle.bridge.includes(u.id))
    .map((u) => u.id);
}

function check(state: WarchonState, seat: Army, cmd: WarchonCommand, p: Pending): string | null {
  switch (cmd.type) {
    case 'placeUnit':
      return checkPlaceUnit(state, seat, cmd);
    case 'moveUnit':
      return checkMoveUnit(state, seat, cmd);
    case 'endMovement':
    case 'endStrategy':
    case 'commitNumber':
    case 'crossBridge':
      return null;
    case 'goBerserk':
      return state.battle && berserkCandidates(state, state.battle, seat).some((u) => u.id === cmd.unit)
        ? null
        : `${cmd.unit} is not one of your Berserk units in this battle, or has already gone berserk`;
    case 'assignHit':
      return damageCandidates(state, seat).includes(cmd.unit) ? null : `${cmd.unit} is not one of your units in this battle`;
    case 'chooseUnit':
      return p.kind === 'CHOOSE_UNIT' && p.options.includes(cmd.unit) ? null : `${cmd.unit} cannot be chosen: choose one of ${p.kind === 'CHOOSE_UNIT' ? p.options.join(', ') : ''}`;
    case 'passChoice':
      return p.kind === 'CHOOSE_UNIT' && p.optional ? null : 'This choice cannot be passed';
    case 'commitToBridge':
      return bridgeCandidates(state).includes(cmd.unit) ? null : `${cmd.unit} is not an attacking unit still on this side of the bridge`;
    case 'retreatUnit': {
      if (p.kind !== 'RETREAT' || p.unit !== cmd.unit) return `${cmd.unit} is not ordered to retreat`;
      // Chosen from the position when the retreat was ordered (ruling): a spread the other army
      // has retreated into since is still open, so neither army's answer takes one from the other.
      return p.options.includes(cmd.to) ? null : `${label(state, state.units[cmd.unit]!)} must retreat to one of ${p.options.map((n) => spreadName(state, n)).join(', ')}`;
    }
    case 'destroyUnit':
      return p.kind === 'DESTROY_UNIT' && overflowCandidates(state, p).includes(cmd.unit)
        ? null
        : `${cmd.unit} is not one of the units over Capacity in ${p.kind === 'DESTROY_UNIT' ? spreadName(state, p.spread) : 'this spread'}`;
  }
}

const WAITING_FOR: Record<Pending['kind'], string> = {
  SETUP: 'to place your units',
  MOVE: 'to move your units',
  STRATEGY: 'to declare your Strategy Round actions',
  COMMIT_NUMBER: 'to choose a secret number',
  ALLOCATE_DAMAGE: 'to assign Hits',
  CHOOSE_UNIT: 'to choose a unit',
  MAGIC_BRIDGE: 'to choose who crosses the Magic Bridge',
  RETREAT: 'to retreat a unit',
  DESTROY_UNIT: 'to destroy units over Capacity',
};

/**
 * The refusal reason, or null when the command is legal now. The kernel has already checked
 * that the game runs and waits for this seat: here, whether the command answers what it waits for.
 */
export function validate(state: WarchonState, seat: Army, cmd: WarchonCommand): string | null {
  const mine = state.pending.filter((p) => p.seat === seat);
  const kind = ANSWERS[cmd.type];
  const candidates = mine.filter((p) => p.kind === kind);
  if (candidates.length === 0) {
    const what = mine.map((p) => WAITING_FOR[p.kind]);
    return what.length ? `Not now: the game waits for you ${what.join(' and ')}` : 'The game is not waiting for you';
  }
  let reason: string | null = null;
  for (const p of candidates) {
    reason = check(state, seat, cmd, p);
    if (reason === null) return null;
  }
  return reason;
}

/** The events a legal command produces before the game moves on. */
export function commandEvents(state: WarchonState, seat: Army, cmd: WarchonCommand): WarchonEvent[] {
  const battle = state.battle;
  switch (cmd.type) {
    case 'placeUnit':
      return placeUnit(state, seat, cmd);
    case 'moveUnit':
      return moveUnit(state, seat, cmd);
    case 'endMovement':
      return endMovement(state, seat);
    case 'goBerserk':
      return [{ type: 'BerserkDeclared', spread: battle!.spread, unit: cmd.unit, multiplier: spreadOf(state, battle!.spread).special.berserkMultiplier }];
    case 'endStrategy':
      return [{ type: 'StrategyEnded', army: seat }];
    case 'commitNumber':
      return [{ type: 'NumberCommitted', army: seat, generation: state.generations, number: cmd.number }];
    case 'assignHit':
      return [assignHit(state, seat, cmd.unit)];
    case 'chooseUnit': {
      const p = state.pending.find((x) => x.seat === seat && x.kind === 'CHOOSE_UNIT') as Extract<Pending, { kind: 'CHOOSE_UNIT' }>;
      return [{ type: 'UnitChosen', seat, purpose: p.purpose, unit: cmd.unit }];
    }
    case 'passChoice': {
      const p = state.pending.find((x) => x.seat === seat && x.kind === 'CHOOSE_UNIT') as Extract<Pending, { kind: 'CHOOSE_UNIT' }>;
      return [{ type: 'ChoicePassed', seat, purpose: p.purpose }];
    }
    case 'commitToBridge':
      return [{ type: 'UnitCommittedToBridge', unit: cmd.unit }];
    case 'crossBridge':
      return [{ type: 'BridgeCrossed', spread: battle!.spread, committed: [...battle!.bridge] }];
    case 'retreatUnit':
      return [{ type: 'UnitRetreated', unit: cmd.unit, from: state.units[cmd.unit]!.spread!, to: cmd.to }];
    case 'destroyUnit':
      return [{ type: 'UnitDestroyed', unit: cmd.unit, cause: 'capacity' }];
  }
}

/** Every command that could answer a decision (checked by validate before it is listed). */
function candidatesFor(state: WarchonState, p: Pending): WarchonCommand[] {
  const seat = p.seat;
  switch (p.kind) {
    case 'SETUP':
      return [...new Set(state.unplaced[seat])].flatMap((u) => state.setupSpreads[seat].map((sp): WarchonCommand => ({ type: 'placeUnit', unit: u, spread: sp })));
    case 'MOVE': {
      const own = Object.values(state.units).filter((u) => u.army === seat && !u.destroyed && u.spread !== null && !u.shifted && !u.temporary);
      return [...own.flatMap((u) => state.spreads.map((sp): WarchonCommand => ({ type: 'moveUnit', unit: u.id, to: sp.number }))), { type: 'endMovement' }];
    }
    case 'STRATEGY':
      return [...(state.battle ? berserkCandidates(state, state.battle, seat) : []).map((u): WarchonCommand => ({ type: 'goBerserk', unit: u.id })), { type: 'endStrategy' }];
    case 'COMMIT_NUMBER':
      return [1, 2, 3, 4, 5].map((n): WarchonCommand => ({ type: 'commitNumber', number: n }));
    case 'ALLOCATE_DAMAGE':
      return damageCandidates(state, seat)
        .filter((id) => hitsLeft(state, state.units[id]!) > 0)
        .map((id): WarchonCommand => ({ type: 'assignHit', unit: id }));
    case 'CHOOSE_UNIT':
      return [...p.options.map((id): WarchonCommand => ({ type: 'chooseUnit', unit: id })), ...(p.optional ? [{ type: 'passChoice' } as WarchonCommand] : [])];
    case 'MAGIC_BRIDGE':
      return [...bridgeCandidates(state).map((id): WarchonCommand => ({ type: 'commitToBridge', unit: id })), { type: 'crossBridge' }];
    case 'RETREAT':
      return p.options.map((to): WarchonCommand => ({ type: 'retreatUnit', unit: p.unit, to }));
    case 'DESTROY_UNIT':
      return overflowCandidates(state, p).map((id): WarchonCommand => ({ type: 'destroyUnit', unit: id }));
  }
}

export function optionsFor(state: WarchonState, p: Pending): WarchonCommand[] {
  return candidatesFor(state, p).filter((c) => check(state, p.seat, c, p) === null);
}

export function legalFor(state: WarchonState, seat: Army): WarchonCommand[] {
  if (state.result) return [];
  const out: WarchonCommand[] = [];
  const seen = new Set<string>();
  for (const p of state.pending) {
    if (p.seat !== seat) continue;
    for (const c of optionsFor(state, p)) {
      const k = JSON.stringify(c);
      if (!seen.has(k)) {
        seen.add(k);
        out.push(c);
      }
    }
  }
  return out;
}

