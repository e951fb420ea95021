/** The facts of Chinese Warlords, named after the rulebook. Every die rolled is in the event that used it. */
import type { CombatResult, CrtColumn, UnitType } from './data.ts';
import type { MapData } from './map.ts';
import type { Phase } from './state.ts';

export interface SetupPlayer {
  seat: string;
  stronghold: string;
  /** WARLORD SPECIAL ABILITIES: the 1D10 roll, 0 read as 10. */
  abilityRoll: number;
  /** 2D6 extra income (ability 9-0), else null. */
  extraIncomeRolls: number[] | null;
  treasury: number;
  /** Ability 4: the nearby village controlled from the start, else null (it is then chosen: NearbyVillageTaken). */
  village: string | null;
}

export type WarlordsEvent =
  | { type: 'GameSetUp'; map: MapData; turnLimit: number | null; players: SetupPlayer[]; units: { id: string; type: UnitType; owner: string; hex: string }[] }
  /** Ability 4: the village within 3 hexes of the stronghold the player chose (or the only one); null: none was free. */
  | { type: 'NearbyVillageTaken'; seat: string; hex: string | null }
  | { type: 'TurnBegan'; turn: number; initiativeRolls: Record<string, number>[]; order: string[] }
  | { type: 'IncomeCollected'; incomes: { seat: string; villages: number; strongholds: number; bonus: number; total: number; treasury: number }[] }
  | { type: 'UpkeepSettled'; upkeep: { seat: string; unitCost: number; due: number; paid: boolean; lossRoll: number | null; treasury: number }[] }
  | { type: 'PhaseBegan'; phase: Phase; seat: string | null }
  | { type: 'UnitLost'; unit: string; unitType: UnitType; seat: string; hex: string; cause: 'upkeep' | 'combat' | 'carrier' }
  | { type: 'AvailabilityRolled'; seat: string; unitType: UnitType; roll: number; bonus: number; total: number; available: boolean }
  | { type: 'UnitRecruited'; seat: string; unitType: UnitType; units: string[]; hex: string; cost: number; treasury: number }
  | { type: 'RecruitmentEnded'; seat: string }
  | { type: 'UnitMoved'; seat: string; unit: string; path: string[]; cost: number; passengers: string[] }
  | { type: 'UnitBoarded'; seat: string; unit: string; carrier: string; hex: string }
  | { type: 'UnitUnloaded'; seat: string; unit: string; carrier: string; hex: string }
  | { type: 'ControlTaken'; seat: string; hex: string; from: string | null }
  | { type: 'StrongholdCaptured'; seat: string; hex: string; owner: string; unit: string }
  | { type: 'MovementEnded'; seat: string }
  | { type: 'AttackDeclared'; seat: string; stack: string; target: string; defender: string; units: string[] }
  | {
      type: 'CombatResolved';
      attacker: string;
      defender: string;
      target: string;
      stacks: string[];
      attackers: string[];
      defenders: string[];
      attackForce: number;
      defenderForce: number;
      terrainDefense: number;
      column: CrtColumn;
      roll: number;
      result: CombatResult;
    }
  | { type: 'StackRetreated'; seat: string; from: string; to: string; units: string[] }
  | { type: 'CombatEnded'; seat: string }
  | { type: 'PlayerDefeated'; seat: string; reason: string }
  | { type: 'GameEnded'; winners: string[]; reason: string }
  | { type: 'TurnLimitReached'; turn: number };

export type WarlordsEventType = WarlordsEvent['type'];
