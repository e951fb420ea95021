import { start, step, matchLegalCommands, matchStatus } from '../src/domain/kernel/index.ts';
import { raidOnWuchao } from '../src/domain/raid-on-wuchao/index.ts';
const m: any = raidOnWuchao;
const by = new Map<string, [number, number, number]>();
for (let rep = 0; rep < 3; rep++) for (let g = 0; g < 64; g++) {
  let { state } = start(m, { options: {}, players: [...m.seats] }, 'seed' + g);
  for (let i = 0; i < 60; i++) {
    const st = matchStatus(m, state); if (st.stage === 'FINISHED') break;
    const seat = st.awaiting[0].seat;
    const t0 = performance.now(); const cmds = matchLegalCommands(m, state, seat); const dt = performance.now() - t0;
    const k = (state as any).game.phase + ':' + st.awaiting[0].kind;
    const e = by.get(k) ?? [0, 0, 0]; e[0]++; e[1] += dt; e[2] += JSON.stringify(cmds).length; by.set(k, e);
    const c = cmds[(g * 7 + i * 13) % cmds.length];
    const r: any = step(m, state, c, { kind: 'seat', seat }, { seed: 'seed' + g }); if (!r.ok) throw new Error(r.reason); state = r.state;
  }
}
for (const [k, [n, t, s]] of by) console.log(k.padEnd(40), n, (t / n).toFixed(4), 'ms', Math.round(s / n), 'bytes');
