/** Folding events into the state. Events are facts: nothing is checked or rolled here. */
import type { WuchaoEvent } from './events.ts';
import type { Side } from './data.ts';
import type { WuchaoState } from './state.ts';

function setUnit(s: WuchaoState, id: string, patch: Partial<WuchaoState['units'][string]>): WuchaoState {
  return { ...s, units: { ...s.units, [id]: { ...s.units[id]!, ...patch } } };
}

function setControl(s: WuchaoState, space: string, side: Side): WuchaoState {
  return { ...s, control: { ...s.control, [space]: side } };
}

export function evolve(state: WuchaoState, event: WuchaoEvent): WuchaoState {
  let s = state;
  switch (event.type) {
    case 'CaoForcesPlaced':
      for (const u of event.units) s = setUnit(s, u, { space: event.space });
      return setControl(s, event.space, 'cao');
    case 'UnitPlaced':
      // Ruling: Yuan controls every space where it set up a unit.
      return setControl(setUnit(s, event.unit, { space: event.space }), event.space, 'yuan');
    case 'SetupCompleted': {
      // Ruling: at the start Yuan controls the granaries.
      const control = { ...s.control };
      for (const g of s.map.granaries) if (control[g] !== 'cao') control[g] = 'yuan';
      return { ...s, control, phase: 'caoMovement', round: event.round };
    }
    case 'UnitMoved': {
      const path = s.paths[event.unit] ?? [event.from];
      s = setUnit(s, event.unit, { space: event.to });
      s = { ...s, paths: { ...s.paths, [event.unit]: [...path, event.to] } };
      // §9: passing through uncontested takes control; entering an enemy space does not.
      if (event.entersEnemy) return s.attacked.includes(event.to) ? s : { ...s, attacked: [...s.attacked, event.to] };
      return setControl(s, event.to, event.side);
    }
    case 'MovementEnded':
      return { ...s, stacking: true };
    case 'UnitSteppedBack': {
      const path = s.paths[event.unit]!;
      s = setUnit(s, event.unit, { space: event.to });
      s = { ...s, paths: { ...s.paths, [event.unit]: path.slice(0, -1) } };
      return setControl(s, event.to, s.units[event.unit]!.side);
    }
    case 'CombatPhaseBegan':
      return { ...s, stacking: false, phase: event.side === 'cao' ? 'caoCombat' : 'yuanCombat', combats: [...event.combats] };
    case 'GranariesRaided':
      return { ...s, granariesRaided: true };
    case 'CombatBegan':
      return {
        ...s,
        combat: {
          space: event.space,
          attackerSide: event.attackerSide,
          attackers: [...event.attackers],
          defenders: [...event.defenders],
          defense: event.defense,
          terrainBonus: event.terrainBonus,
          dice: event.dice.map((die) => ({ die, roll: null })),
          rerolling: null,
          attackTotal: null,
          damage: null,
          allocated: false,
        },
      };
    case 'DieRolled': {
      const c = s.combat!;
      // §10: while Cao holds a Xu You token, every combat die waits for Cao's answer.
      return { ...s, combat: { ...c, dice: c.dice.map((d) => (d.die === event.die ? { ...d, roll: event.roll } : d)), rerolling: s.xuYou > 0 ? event.die : null } };
    }
    case 'XuYouRerolled': {
      const c = s.combat!;
      const xuYou = event.tokensLeft;
      return { ...s, xuYou, combat: { ...c, dice: c.dice.map((d) => (d.die === event.die ? { ...d, roll: event.roll } : d)), rerolling: xuYou > 0 ? event.die : null } };
    }
    case 'RollAccepted':
      return { ...s, combat: { ...s.combat!, rerolling: null } };
    case 'CombatResolved':
      return { ...s, combat: { ...s.combat!, attackTotal: event.attackTotal, damage: event.damage, allocated: event.damage === 0 } };
    case 'DamageAllocated': {
      for (const u of event.flipped) s = setUnit(s, u, { reduced: true });
      for (const u of event.destroyed) s = setUnit(s, u, { reduced: true, destroyed: true, space: null });
      return { ...s, combat: { ...s.combat!, allocated: true } };
    }
    case 'CaoCaoDestroyed':
      // §8 "Yuan Shao wins instantly": the game ends mid-combat, so no combat is left pending or in progress.
      return { ...s, phase: 'over', combats: [], combat: null, result: { winners: ['yuan'], reason: 'Cao Cao destroyed' } };
    case 'AssaultSucceeded':
      // §8 Successful Assault: the attackers occupy the space.
      return { ...setControl(s, event.space, event.side), combat: null, combats: s.combats.filter((c) => c !== event.space) };
    case 'AssaultFailed': {
      for (const w of event.withdrawals) {
        if (w.to === null) s = setUnit(s, w.unit, { reduced: true, destroyed: true, space: null });
        else s = setControl(setUnit(s, w.unit, { space: w.to }), w.to, event.side);
      }
      return { ...s, combat: null, combats: s.combats.filter((c) => c !== event.space) };
    }
    case 'CombatPhaseEnded':
      return {
        ...s,
        phase: event.side === 'cao' ? 'yuanMovement' : 'victoryCheck',
        paths: {},
        attacked: [],
        combats: [],
        combat: null,
      };
    case 'VictoryChecked':
      if (event.winner) return { ...s, phase: 'over', result: { winners: [event.winner], reason: event.reason ?? '' } };
      return s;
    case 'GameEnded':
      // A resignation, an agreed draw or a time-out: nothing is pending any more.
      return { ...s, phase: 'over', result: { winners: [...event.winners], reason: event.reason }, combats: [], combat: null, paths: {} };
    case 'RoundAdvanced':
      return { ...s, round: event.round, phase: 'caoMovement' };
  }
  return s;
}
