/**
 * Random Events: a number marked "E" (first time this turn at this spread) sends the
 * battle to the spread's Events Table; another number picks the entry. Each entry's
 * effect is data (data.ts); this file says what each kind of effect does. Effects that
 * wait for a choice or another number go in stages (battle.effectStage).
 */
import type { Random } from '../kernel/index.ts';
import { hasEnemy, hasTrait, hitsLeft, isEngaged, lineOf, movementNeeded, neighbours, spreadOf, typeOf, unitsIn } from './battlefield.ts';
import { battleArmy, controllingArmy, effectiveDs } from './combat.ts';
import { hitUnit } from './damage.ts';
import { callNumber } from './numbers.ts';
import type { Run } from './run.ts';
import type { Army, Battle, RevealedUnit, Unit, WarchonEvent, WarchonState } from './types.ts';
import { ARMIES, opponent } from './types.ts';

export function revealed(state: WarchonState, u: Unit): RevealedUnit {
  return { id: u.id, army: u.army, key: u.key, type: u.type, name: typeOf(state, u).name };
}

function resolved(battle: Battle, more: Partial<Extract<WarchonEvent, { type: 'EventResolved' }>> = {}): WarchonEvent {
  return { type: 'EventResolved', spread: battle.spread, endsCombat: false, useOriginalNumber: false, ...more };
}

/** Retreat one spread: to a neighbouring spread (in order or by path) free of enemy units. */
export function retreatOptions(state: WarchonState, unit: Unit, from: number): number[] {
  return neighbours(state, from).filter((n) => !hasEnemy(state, n, unit.army));
}

/**
 * Order units to retreat; a unit with nowhere to go is destroyed. Every option is fixed now,
 * from the position when the event happened (ruling): when one event orders both armies to
 * retreat, neither the order they are processed in nor who answers first takes a spread from
 * the other, so both may end in the same spread (a battle there, in its turn).
 */
export function orderRetreats(run: Run, units: Unit[], cause: string): boolean {
  const s = run.state;
  const retreats: { unit: string; seat: Army; options: number[] }[] = [];
  for (const u of units) {
    const options = retreatOptions(s, u, u.spread!);
    if (options.length === 0) run.emit({ type: 'UnitDestroyed', unit: u.id, cause: `${cause}: nowhere to retreat` });
    else retreats.push({ unit: u.id, seat: u.army, options });
  }
  if (retreats.length) run.emit({ type: 'RetreatsOrdered', cause, retreats });
  return retreats.length > 0;
}

export function runEffect(run: Run, random: Random): void {
  const s = run.state;
  const battle = s.battle!;
  const entry = spreadOf(s, battle.spread).events![battle.eventIndex!]!;
  const effect = entry.effect;
  const stage = battle.effectStage;
  const here = unitsIn(s, battle.spread);
  const side = (army: Army) => battleArmy(s, battle, army);

  switch (effect.kind) {
    case 'armyModifier': {
      const army = battle[effect.side];
      const units = side(army);
      // Inspired Charge needs at least one "Tactics" unit in the attacking army.
      if (units.length && (effect.requiresTrait === null || units.some((u) => hasTrait(s, u, effect.requiresTrait!)))) {
        run.emit({ type: 'CSModified', spread: battle.spread, units: units.map((u) => u.id), op: 'add', value: effect.value, stat: effect.stat, reason: entry.name });
      }
      run.emit(resolved(battle));
      return;
    }
    case 'eachArmyTakesHits':
      if (stage === 0) {
        run.emit({ type: 'HitsToAssign', spread: battle.spread, hits: { azuthkan: effect.hits, celestine: effect.hits }, cause: entry.name });
        return;
      }
      run.emit(resolved(battle));
      return;
    case 'surpriseReserve': {
      const controller = controllingArmy(battle);
      if (stage === 0) {
        // "From another location within that unit's Movement, even if that unit had already moved":
        // any other spread, one holding enemies too, but not an Engaged one (its units cannot leave).
        const options = Object.values(s.units)
          .filter((u) => u.army === controller && !u.destroyed && !u.temporary && u.spread !== null && u.spread !== battle.spread)
          .filter((u) => !isEngaged(s, u.spread!) && !(hasEnemy(s, u.spread!, controller) && spreadOf(s, u.spread!).special.leaveBattleLimit === 0))
          // Within its Movement as it would move: a non-aerial unit cannot pass through a spread holding enemy units.
          .filter((u) => movementNeeded(s, u, u.spread!, battle.spread) <= lineOf(s, u).movement)
          .map((u) => u.id);
        // Always asked, even with no unit that can come (ruling): whether the Controlling army is
        // asked must not tell the other army what its hidden units can reach. It may pass.
        run.emit({ type: 'ChoicesOffered', spread: battle.spread, purpose: 'reserve', choices: [{ seat: controller, options, optional: true }] });
        return;
      }
      const pick = battle.picks.find((p) => p.seat === controller);
      if (pick) {
        const u = s.units[pick.unit]!;
        run.emit({ type: 'ReserveJoined', spread: battle.spread, unit: revealed(s, u), from: u.spread! });
      }
      run.emit(resolved(battle));
      return;
    }
    case 'endCombat':
      run.emit(resolved(battle, { endsCombat: true }));
      return;
    case 'waterElemental':
      if (stage === 0) {
        callNumber(run, random, 'effect');
        return;
      } else {
        const n = battle.number!.value;
        if (n <= 4) {
          const army = n <= 2 ? battle.attacker : battle.defender;
          run.emit({ type: 'ElementalJoined', spread: battle.spread, army, unit: `water-elemental-${s.turn}-${battle.spread}` });
        } else run.emit({ type: 'CSHalved', spread: battle.spread });
        run.emit(resolved(battle));
        return;
      }
    case 'accidentalFall':
      if (stage === 0) {
        const choices = ARMIES.map((seat) => ({
          seat,
          options: side(opponent(seat))
            .filter((u) => !effect.immune.some((t) => hasTrait(s, u, t)))
            .map((u) => u.id),
          optional: false,
        })).filter((c) => c.options.length > 0);
        if (choices.length === 0) {
          run.emit(resolved(battle));
          return;
        }
        run.emit({ type: 'ChoicesOffered', spread: battle.spread, purpose: 'accidentalFall', choices });
        return;
      }
      for (const p of battle.picks) if (!s.units[p.unit]!.destroyed) run.emit({ type: 'UnitDestroyed', unit: p.unit, cause: entry.name });
      run.emit(resolved(battle));
      return;
    case 'magicBridge':
      // No location in the demo prints an attack restriction: all attackers attack as normal.
      run.emit(resolved(battle));
      return;
    case 'magicBridgeIllusion':
      if (stage === 0) {
        run.emit({ type: 'BridgeOffered', spread: battle.spread, army: battle.attacker });
        return;
      }
      if (stage === 1) {
        callNumber(run, random, 'effect');
        return;
      }
      if (battle.number!.value <= 2) {
        for (const id of battle.bridge) {
          const u = s.units[id]!;
          if (!u.destroyed && !effect.immune.some((t) => hasTrait(s, u, t))) run.emit({ type: 'UnitDestroyed', unit: id, cause: 'the Magic Bridge was an illusion' });
        }
      }
      run.emit(resolved(battle));
      return;
    case 'riversFury': {
      const picks: { army: Army; roll: number; unit: string }[] = [];
      for (const army of ARMIES) {
        const targets = side(opponent(army)).sort((a, b) => a.id.localeCompare(b.id));
        if (!targets.length) continue;
        const roll = random.die(targets.length);
        picks.push({ army, roll, unit: targets[roll - 1]!.id });
      }
      run.emit({ type: 'RiversFury', picks });
      for (const p of picks) if (!run.state.units[p.unit]!.destroyed) run.emit(hitUnit(run.state, p.unit, entry.name));
      run.emit(resolved(battle));
      return;
    }
    case 'volcanicEruption':
      // "Brimstone Dragons" names a playmark: spared whether a roster gives it as the unit's name or as a trait (ruling).
      for (const u of here) if (!hasTrait(s, u, effect.spared) && typeOf(s, u).name !== effect.spared) run.emit({ type: 'UnitDestroyed', unit: u.id, cause: entry.name });
      run.emit(resolved(battle, { endsCombat: true }));
      return;
    case 'magmaFlow':
      if (stage === 0) {
        for (const u of here) if (lineOf(s, u).movement <= effect.maxMovement) run.emit({ type: 'UnitDestroyed', unit: u.id, cause: entry.name });
        const rest = unitsIn(run.state, battle.spread);
        if (orderRetreats(run, rest, entry.name)) return;
      }
      run.emit(resolved(battle, { endsCombat: true }));
      return;
    case 'hitAndSetCs': {
      const struck = here.filter((u) => hasTrait(s, u, effect.trait) === effect.withTrait);
      const survivors = struck.filter((u) => hitsLeft(s, u) > 1).map((u) => u.id);
      for (const u of struck) run.emit(hitUnit(run.state, u.id, entry.name));
      if (survivors.length) run.emit({ type: 'CSModified', spread: battle.spread, units: survivors, op: 'set', value: effect.cs, stat: 'CS', reason: entry.name });
      run.emit(resolved(battle));
      return;
    }
    case 'none':
      run.emit(resolved(battle, { useOriginalNumber: true }));
      return;
    case 'assassination':
      if (stage === 0) {
        callNumber(run, random, 'effect');
        return;
      }
      if (stage === 1) {
        const n = battle.number!.value;
        const loser = n <= 2 ? battle.attacker : n <= 4 ? battle.defender : null;
        const options = loser ? side(loser).filter((u) => u.army === loser).map((u) => u.id) : [];
        if (!loser || options.length === 0) {
          run.emit(resolved(battle));
          return;
        }
        run.emit({ type: 'ChoicesOffered', spread: battle.spread, purpose: 'assassination', choices: [{ seat: loser, options, optional: false }] });
        return;
      }
      for (const p of battle.picks) if (!s.units[p.unit]!.destroyed) run.emit({ type: 'UnitDestroyed', unit: p.unit, cause: entry.name });
      run.emit(resolved(battle));
      return;
    case 'swarmingMob': {
      const largest = Math.max(...here.map((u) => lineOf(s, u).size));
      const units = here.filter((u) => lineOf(s, u).size === largest).map((u) => u.id);
      if (units.length) run.emit({ type: 'CSModified', spread: battle.spread, units, op: 'set', value: 0, stat: 'CS', reason: entry.name });
      run.emit(resolved(battle));
      return;
    }
    case 'cullTheWeak': {
      const least = Math.min(...here.map((u) => effectiveDs(s, battle, u)));
      for (const u of here) if (effectiveDs(s, battle, u) === least) run.emit({ type: 'UnitDestroyed', unit: u.id, cause: entry.name });
      run.emit(resolved(battle));
      return;
    }
    case 'bribery': {
      const controller = controllingArmy(battle);
      const chooser = effect.by === 'controlling' ? controller : opponent(controller);
      if (stage === 0) {
        const options = side(opponent(chooser)).filter((u) => !u.temporary).map((u) => u.id);
        if (options.length === 0) {
          run.emit(resolved(battle));
          return;
        }
        run.emit({ type: 'ChoicesOffered', spread: battle.spread, purpose: 'bribery', choices: [{ seat: chooser, options, optional: false }] });
        return;
      }
      const pick = battle.picks.find((p) => p.seat === chooser);
      if (pick && !s.units[pick.unit]!.destroyed) run.emit({ type: 'UnitBribed', spread: battle.spread, unit: pick.unit, fightsFor: chooser });
      run.emit(resolved(battle));
      return;
    }
  }
}
