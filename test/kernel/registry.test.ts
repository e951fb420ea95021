import { describe, expect, it } from 'vitest';
import { copyJson, GameRegistry } from '../../src/domain/kernel/index.ts';
import { guessingGame } from '../support/guessing-game.ts';

describe('registry', () => {
  const registry = new GameRegistry([guessingGame]);

  it('publishes the command schema with the match commands added', () => {
    const schema = registry.type('guessing-game')!.commandSchema as { oneOf: { title?: string; properties: { type: { const: string } } }[] };
    expect(schema.oneOf.map((s) => s.properties.type.const)).toEqual(['guess', 'resign', 'offerDraw', 'acceptDraw', 'declineDraw']);
  });

  it('validates commands before any rule runs, with a readable reason', () => {
    expect(registry.validateCommand('guessing-game', { type: 'guess', number: 3 })).toEqual({ ok: true, value: { type: 'guess', number: 3 } });
    expect(registry.validateCommand('guessing-game', { type: 'guess', number: 9 })).toMatchObject({ ok: false, reason: expect.stringContaining('number') });
    expect(registry.validateCommand('guessing-game', { type: 'fly' })).toMatchObject({ ok: false });
    expect(registry.validateCommand('guessing-game', { type: 'guess', number: 2, extra: 1 })).toMatchObject({ ok: false, reason: expect.stringContaining('extra') });
    expect(registry.validateCommand('guessing-game', 'resign')).toMatchObject({ ok: false });
    expect(registry.validateCommand('nope', {})).toMatchObject({ ok: false, reason: 'unknown game type "nope"' });
  });

  it('fills option defaults into a copy: the caller\'s object is left as it was', () => {
    const given = {};
    expect(registry.validateOptions('guessing-game', given)).toEqual({ ok: true, value: { target: 10 } });
    expect(given).toEqual({});
    expect(registry.validateOptions('guessing-game', { target: 0 })).toMatchObject({ ok: false });
  });

  it('copies parsed JSON deeply, a "__proto__" key as data (as JSON.parse keeps it), not as the copy\'s prototype', () => {
    const parsed = JSON.parse('{"type":"move","path":["A1",{"to":"B2"}],"n":null,"ok":true,"__proto__":{"polluted":1}}');
    const copy = copyJson(parsed);
    expect(copy).toEqual(parsed);
    expect(copy.path).not.toBe(parsed.path);
    expect(copy.path[1]).not.toBe(parsed.path[1]);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect((copy as { polluted?: number }).polluted).toBeUndefined();
    expect(Object.keys(copy)).toEqual(Object.keys(parsed));
    expect(JSON.stringify(copy)).toBe(JSON.stringify(parsed));
  });

  it('refuses a presentation that does not name and colour exactly the seats', () => {
    const presentation = { description: 'd', seats: { north: { name: 'North', colour: '#2b6cb0' }, east: { name: 'East', colour: '#2f855a' }, south: { name: 'South', colour: '#c53030' } } };
    expect(new GameRegistry([{ ...guessingGame, presentation }]).type('guessing-game')!.seatDetails[0]).toEqual({ id: 'north', name: 'North', colour: '#2b6cb0' });
    const { south: _south, ...two } = presentation.seats;
    expect(() => new GameRegistry([{ ...guessingGame, presentation: { ...presentation, seats: two } }])).toThrow(/missing south, unknown none/);
    expect(() => new GameRegistry([{ ...guessingGame, presentation: { ...presentation, seats: { ...presentation.seats, west: { name: 'West', colour: '#000000' } } } }])).toThrow(/unknown west/);
    expect(() => new GameRegistry([{ ...guessingGame, presentation: { ...presentation, seats: { ...presentation.seats, south: { name: 'South', colour: 'red' } } } }])).toThrow(/south is not a CSS hex colour/);
  });
});
