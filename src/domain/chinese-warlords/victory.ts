/**
 * VICTORY CONDITIONS: "Kill opponents Warlord or capture his stronghold." With three or more
 * players the loser is out and the last one left wins (ruling).
 */
import { activeSeats, type WarlordsState } from './state.ts';

/** A player is out: their units leave the board, their villages and stronghold fall free. */
export function removePlayer(s: WarlordsState, seat: string, reason: string): WarlordsState {
  const players = { ...s.players, [seat]: { ...s.players[seat]!, out: true } };
  const control = Object.fromEntries(Object.entries(s.control).filter(([, who]) => who !== seat));
  const { [seat]: _gone, ...upkeepLosses } = s.upkeepLosses;
  const villageToChoose = s.villageToChoose.filter((p) => p !== seat);
  let next: WarlordsState = {
    ...s,
    players,
    control,
    upkeepLosses,
    villageToChoose,
    units: s.units.filter((u) => u.owner !== seat),
    // A rolled result stands when its attacker goes out: the defender still chooses its losses
    // and retreats or loses another unit (ruling). An attack not yet rolled is dropped.
    defense: s.defense && s.defense.defender === seat ? null : s.defense,
    attack: s.attack && (s.attack.defender === seat || s.attack.attacker === seat) ? null : s.attack,
    stepDone: s.seat === seat ? true : s.stepDone,
  };
  const left = activeSeats(next);
  if (left.length <= 1) next = { ...next, result: { winners: left, reason } };
  return next;
}

/** Players still in the game who no longer have their Warlord. */
export function warlordsKilled(s: WarlordsState): string[] {
  return activeSeats(s).filter((p) => !s.units.some((u) => u.owner === p && u.type === 'warlord'));
}
