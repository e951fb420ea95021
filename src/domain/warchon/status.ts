/** Where the game stands, in the rulebook's words, and what it waits for. */
import type { Prompt, Status } from '../kernel/index.ts';
import { spreadName } from './battlefield.ts';
import type { Pending, RandomEventEntry, WarchonState } from './types.ts';
import { ARMY_NAMES } from './types.ts';

export function phaseName(state: WarchonState): string {
  switch (state.phase) {
    case 'setup':
      return `Setup (${ARMY_NAMES[state.setupArmy ?? 'azuthkan']})`;
    case 'turnStart':
      return 'Setup complete';
    case 'movement':
      return `${ARMY_NAMES[state.active]} Movement Round`;
    case 'battles':
    case 'turnEnd': {
      const b = state.battle;
      if (!b) return `${ARMY_NAMES[state.active]} battles`;
      if (state.pending.some((p) => p.kind === 'STRATEGY')) return `Strategy Round at ${spreadName(state, b.spread)}`;
      if (b.step === 'event' || b.step === 'event-number') return `Random Event at ${spreadName(state, b.spread)}`;
      return `Battle at ${spreadName(state, b.spread)}`;
    }
    case 'over':
      return 'Game over';
  }
}

/** The Events Table entry the battle is resolving, if any. */
function currentEvent(state: WarchonState): RandomEventEntry | null {
  const b = state.battle;
  if (!b || b.eventIndex === null) return null;
  return state.spreads.find((sp) => sp.number === b.spread)?.events?.[b.eventIndex] ?? null;
}

/** What a number being generated decides: the combat result, the Events Table entry, or the event itself. */
function numberDecides(state: WarchonState, where: string): string {
  const purpose = state.battle?.call?.purpose ?? 'combat';
  if (purpose === 'combat') return `the combat result of the battle at ${where}`;
  if (purpose === 'event') return `which entry of the ${where} Events Table happens`;
  const entry = currentEvent(state);
  if (!entry) return `the Random Event at ${where}`;
  const e = entry.effect;
  switch (e.kind) {
    case 'waterElemental':
      return `the ${entry.name} at ${where} (1-2: it joins the attacking army, 3-4: the defending army, 5: all armies at halved CS)`;
    case 'assassination':
      return `the ${entry.name} at ${where} (1-2: the attacking army loses a unit of its choice, 3-4: the defending army, 5: no effect)`;
    case 'magicBridgeIllusion':
      return `whether the ${entry.name} at ${where} is an illusion (1-2: the committed units without ${e.immune.join(' or ')} are destroyed)`;
    default:
      return `the ${entry.name} at ${where}`;
  }
}

function sentence(state: WarchonState, p: Pending): string {
  const where = state.battle ? spreadName(state, state.battle.spread) : '';
  const event = currentEvent(state)?.name;
  switch (p.kind) {
    case 'SETUP':
      return `Place your units secretly in spreads ${state.setupSpreads[p.seat].join(', ')}`;
    case 'MOVE':
      return 'Move your units (one spread per Movement), then end the Movement Round';
    case 'STRATEGY':
      return `Strategy Round at ${where}: declare Berserk units, then end the Strategy Round`;
    case 'COMMIT_NUMBER':
      return `Choose a secret number from 1 to 5: it decides ${numberDecides(state, where)}`;
    case 'ALLOCATE_DAMAGE':
      return `Assign ${p.hits} Hit${p.hits === 1 ? '' : 's'} among your units in the battle at ${where} (${p.cause})`;
    case 'CHOOSE_UNIT':
      return {
        reserve: `${event ?? 'Surprise Reserve'}: choose a unit to move into the battle at ${where}, or pass`,
        accidentalFall: `${event ?? 'Accidental Fall'}: choose an opposing unit at ${where} to fall`,
        assassination: `${event ?? 'Assassination'}: choose which of your units at ${where} is lost`,
        // Bribery and Shell Game (entry 5, "as #4") share this choice: the prompt names the entry drawn.
        bribery: `${event ?? 'Bribery'}: choose an opposing unit at ${where} to fight for you this turn`,
      }[p.purpose];
    case 'MAGIC_BRIDGE':
      return `Magic Bridge at ${where}: commit the units that will attack now, then cross`;
    case 'RETREAT':
      return `${p.cause}: retreat ${p.unit} one spread`;
    case 'DESTROY_UNIT':
      return `Destroy units in ${spreadName(state, p.spread)} until your army is within its Capacity`;
  }
}

export function status(state: WarchonState): Status {
  if (state.result) return { stage: 'FINISHED', phase: phaseName(state), round: state.turn, awaiting: [], result: { ...state.result, winners: [...state.result.winners] } };
  const awaiting: Prompt[] = state.pending.map((p) => ({ seat: p.seat, kind: p.kind, prompt: sentence(state, p) }));
  return {
    stage: state.turn === 0 ? 'SETUP' : 'ACTIVE',
    phase: phaseName(state),
    round: state.turn === 0 ? null : state.turn,
    awaiting,
    result: null,
  };
}
