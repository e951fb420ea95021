/**
 * Raid on Wuchao: Cao Cao's raid on Yuan Shao's granaries, eight rounds, two seats.
 * The rules live in files named after the rulebook: setup.ts (§11), movement.ts (§6),
 * combat.ts (§7, §8), xu-you.ts (§10), victory.ts (§2), sequence.ts (§3).
 */
import { accept, gameStatus, refuse, type GameModule, type Json, type Prompt, type Random, type Status } from '../kernel/index.ts';
import { SIDE_NAME, type Side } from './data.ts';
import { commandSchema, type WuchaoCommand } from './commands.ts';
import { allocate, allocationPrompt, allocations, assaultSucceeded, withdraw, withdrawalPlans, withdrawalPrompt } from './combat.ts';
import type { WuchaoEvent } from './events.ts';
import { evolve } from './evolve.ts';
import { notation } from './notation.ts';
import { legalMoves, move, stackingPrompt, stepBack, stepBackCandidates } from './movement.ts';
import { optionsSchema, type WuchaoOptions } from './options.ts';
import { proceed } from './sequence.ts';
import { legalPlacements, placementRefusal, setupEvents, unplacedYuan, yuanSetupSpaces } from './setup.ts';
import { activeSide, initialState, type WuchaoState } from './state.ts';
import { tape, type Tape } from './tape.ts';
import { view } from './view.ts';
import { acceptRoll, reroll, rerollPrompt } from './xu-you.ts';
import { eventSchema } from './event-schema.ts';
import { presentation } from './presentation.ts';
import { viewSchema } from './view-schema.ts';

export type { WuchaoState } from './state.ts';
export type { WuchaoEvent } from './events.ts';
export type { WuchaoCommand } from './commands.ts';
export type { WuchaoOptions } from './options.ts';

const PHASE_NAME: Record<WuchaoState['phase'], string> = {
  setup: 'Setup',
  caoMovement: 'Cao movement',
  caoCombat: 'Cao combat',
  yuanMovement: 'Yuan movement',
  yuanCombat: 'Yuan combat',
  victoryCheck: 'Victory conditions check',
  over: 'Game over',
};

/** The decision the game waits for, if any: which seat, of what kind. */
export function awaited(s: WuchaoState): Prompt | null {
  if (s.result) return null;
  if (s.phase === 'setup') {
    const left = unplacedYuan(s).length;
    return { seat: 'yuan', kind: 'SETUP', prompt: `Place your units (${left} left) in zones ${[...new Set(yuanSetupSpaces(s).map((x) => x.replace(/\d+$/, '')))].join(', ')}, at most five a space` };
  }
  const side = activeSide(s);
  if (!side) return null;
  if (s.phase === 'caoMovement' || s.phase === 'yuanMovement') {
    if (s.stacking) return { seat: side, kind: 'RETREAT', prompt: stackingPrompt(s, side) };
    return { seat: side, kind: 'MOVE', prompt: `${SIDE_NAME[side]} movement: move your units one space at a time, then end your movement` };
  }
  const c = s.combat;
  if (!c) return null;
  if (c.rerolling) return { seat: 'cao', kind: 'REROLL', prompt: rerollPrompt(s) };
  if (c.damage !== null && !c.allocated) {
    const defender: Side = c.attackerSide === 'cao' ? 'yuan' : 'cao';
    return { seat: defender, kind: 'ALLOCATE_DAMAGE', prompt: allocationPrompt(s) };
  }
  if (c.allocated && !assaultSucceeded(s) && withdrawalPlans(s).length > 1) {
    return { seat: c.attackerSide, kind: 'WITHDRAW', prompt: withdrawalPrompt(s) };
  }
  return null;
}

function run(state: WuchaoState, random: Random, first: (t: Tape) => string | null) {
  const t = tape(state);
  const refusal = first(t);
  if (refusal !== null) return refuse(refusal);
  proceed(t, random);
  return accept<WuchaoEvent>(...t.events);
}

/** Record a rule's event, or return its refusal. */
function step(t: Tape, e: WuchaoEvent | string): string | null {
  if (typeof e === 'string') return e;
  t.emit(e);
  return null;
}

const EXPECTED: Record<string, WuchaoCommand['type'][]> = {
  SETUP: ['placeUnit', 'deploy'],
  MOVE: ['move', 'endMovement'],
  RETREAT: ['stepBack'],
  REROLL: ['reroll', 'acceptRoll'],
  ALLOCATE_DAMAGE: ['allocateDamage'],
  WITHDRAW: ['withdraw'],
};

export const raidOnWuchao: GameModule<WuchaoState, WuchaoCommand, WuchaoEvent, WuchaoOptions> = {
  id: 'raid-on-wuchao',
  name: 'Raid on Wuchao',
  seats: ['cao', 'yuan'],
  minPlayers: 2,
  maxPlayers: 2,
  optionsSchema,
  commandSchema,
  eventSchema,
  viewSchema,
  presentation,

  initialState,

  setup(input) {
    return setupEvents(input);
  },

  decide(state, command, seat, random) {
    // The kernel has already checked that the game waits for this seat.
    const prompt = awaited(state)!;
    if (!EXPECTED[prompt.kind]!.includes(command.type)) {
      return refuse(`${prompt.prompt} (${EXPECTED[prompt.kind]!.join(' or ')}), not ${command.type}`);
    }
    const side = seat as Side;
    switch (command.type) {
      case 'placeUnit':
        return run(state, random, (t) => {
          const why = placementRefusal(t.state, command.unit, command.space);
          if (why) return why;
          t.emit({ type: 'UnitPlaced', unit: command.unit, space: command.space });
          return null;
        });
      case 'deploy':
        return run(state, random, (t) => {
          const missing = unplacedYuan(t.state).filter((u) => !command.placements.some((p) => p.unit === u));
          for (const p of command.placements) {
            const why = placementRefusal(t.state, p.unit, p.space);
            if (why) return why;
            t.emit({ type: 'UnitPlaced', unit: p.unit, space: p.space });
          }
          if (missing.length) return `Place every unit: ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing`;
          return null;
        });
      case 'move':
        return run(state, random, (t) => step(t, move(t.state, side, command.unit, command.to)));
      case 'endMovement':
        return run(state, random, (t) => step(t, { type: 'MovementEnded', side }));
      case 'stepBack':
        return run(state, random, (t) => step(t, stepBack(t.state, side, command.unit, false)));
      case 'reroll':
        return run(state, random, (t) => step(t, reroll(t.state, random)));
      case 'acceptRoll':
        return run(state, random, (t) => step(t, acceptRoll(t.state)));
      case 'allocateDamage':
        return run(state, random, (t) => step(t, allocate(t.state, command.units, false)));
      case 'withdraw':
        return run(state, random, (t) => step(t, withdraw(t.state, command.withdrawals)));
    }
    return refuse(`Unknown command ${(command as { type: string }).type}`, 'BAD_REQUEST');
  },

  evolve,

  view(state, viewer): Json {
    // The kernel's memo: the state's status is usually worked out already (the command's answer, the read).
    return view(state, viewer, gameStatus(raidOnWuchao, state));
  },

  legalCommands(state, seat) {
    const prompt = awaited(state);
    if (!prompt || prompt.seat !== seat) return [];
    const side = seat as Side;
    switch (prompt.kind) {
      case 'SETUP':
        return legalPlacements(state);
      case 'MOVE':
        return [...legalMoves(state, side), { type: 'endMovement' }];
      case 'RETREAT':
        return stepBackCandidates(state, side).map((unit) => ({ type: 'stepBack', unit }));
      case 'REROLL':
        return [{ type: 'reroll' }, { type: 'acceptRoll' }];
      case 'ALLOCATE_DAMAGE':
        return allocations(state, state.combat!).map((units) => ({ type: 'allocateDamage', units }));
      case 'WITHDRAW':
        return withdrawalPlans(state).map((withdrawals) => ({ type: 'withdraw', withdrawals }));
    }
    return [];
  },

  status,
  notation,
};

function status(state: WuchaoState): Status {
  const prompt = awaited(state);
  return {
    stage: state.result ? 'FINISHED' : state.phase === 'setup' ? 'SETUP' : 'ACTIVE',
    phase: PHASE_NAME[state.phase],
    round: state.round === 0 ? null : state.round,
    awaiting: prompt ? [prompt] : [],
    result: state.result,
  };
}
