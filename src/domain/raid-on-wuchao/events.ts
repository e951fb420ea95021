/** The facts of a game of Raid on Wuchao, named in the rulebook's words. */
import type { Side } from './data.ts';

export interface Withdrawal {
  unit: string;
  from: string;
  /** null: no space on its path had room, the unit is destroyed (ruling, docs/rules). */
  to: string | null;
}

export type WuchaoEvent =
  /** §11 Setup: all Cao units at the camp. */
  | { type: 'CaoForcesPlaced'; space: string; units: string[] }
  | { type: 'UnitPlaced'; unit: string; space: string }
  /** §11: setup over, round marker on round 1. */
  | { type: 'SetupCompleted'; round: number }
  | { type: 'UnitMoved'; unit: string; side: Side; from: string; to: string; movementLeft: number; entersEnemy: boolean }
  | { type: 'MovementEnded'; side: Side }
  /** §6 Stacking limit: one excess unit steps back along the path it moved. */
  | { type: 'UnitSteppedBack'; unit: string; from: string; to: string; automatic: boolean }
  | { type: 'CombatPhaseBegan'; side: Side; combats: string[] }
  /** §7/§10 Raid on Wuchao: both granaries lose their +2 for the rest of the game. */
  | { type: 'GranariesRaided'; round: number; space: string }
  | { type: 'CombatBegan'; space: string; attackerSide: Side; attackers: string[]; defenders: string[]; bestDefense: number; terrainBonus: number; defense: number; dice: string[] }
  /** A die of the combat: a variable-attack unit's own 1D6 (die = its id) or the combat 1D6 (die = "combat"). */
  | { type: 'DieRolled'; space: string; die: string; roll: number }
  /** §10 Xu You: the Cao player spends a token to reroll the die. */
  | { type: 'XuYouRerolled'; space: string; die: string; previous: number; roll: number; tokensLeft: number }
  | { type: 'RollAccepted'; space: string; die: string; roll: number }
  | { type: 'CombatResolved'; space: string; attackTotal: number; defense: number; damage: number }
  /** §8 Damage Allocation: `units` names the unit taking each point, in order. */
  | { type: 'DamageAllocated'; space: string; units: string[]; flipped: string[]; destroyed: string[]; automatic: boolean }
  /** §2 Elimination, §8: Yuan wins at once. */
  | { type: 'CaoCaoDestroyed'; unit: string; space: string }
  | { type: 'AssaultSucceeded'; space: string; side: Side; attackers: string[] }
  | { type: 'AssaultFailed'; space: string; side: Side; withdrawals: Withdrawal[] }
  | { type: 'CombatPhaseEnded'; side: Side }
  | {
      type: 'VictoryChecked';
      round: number;
      caoHoldsGranaries: boolean;
      yuanHoldsCamp: boolean;
      winner: Side | null;
      reason: string | null;
    }
  | { type: 'RoundAdvanced'; round: number }
  /** A resignation, an agreed draw or a time-out (the match's own ending). */
  | { type: 'GameEnded'; winners: string[]; reason: string };
