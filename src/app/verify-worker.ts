/**
 * The worker thread of Verifier (verifier.ts): parses an export and runs verify's checking code
 * (src/app/verify.ts) (re-deriving every roll from the seed and re-folding the log) off the main
 * thread, so a large document never holds up other requests. It loads the hosted games from
 * the module URLs it is given (each exports GameModules, or lists of them).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { GameRegistry, type GameModule } from '../domain/kernel/index.ts';
import { AppError } from './errors.ts';
import { verifyExport } from './verify.ts';

export interface VerifyJob {
  id: number;
  body: Uint8Array;
}

export type VerifyAnswer = { id: number; report: unknown } | { id: number; error: { code: string; message: string } };

const isModule = (v: unknown): v is GameModule => !!v && typeof v === 'object' && typeof (v as GameModule).id === 'string' && Array.isArray((v as GameModule).seats) && 'optionsSchema' in v;

const { modules, rules } = workerData as { modules: string[]; rules: string };
const games = new Map<string, GameModule>();
for (const url of modules) {
  for (const value of Object.values(await import(url))) {
    for (const m of Array.isArray(value) ? value : [value]) if (isModule(m)) games.set(m.id, m);
  }
}
// Only verify runs here: a pure module, no store.
const registry = new GameRegistry([...games.values()]);

parentPort!.on('message', ({ id, body }: VerifyJob) => {
  let answer: VerifyAnswer;
  try {
    let doc: unknown;
    try {
      doc = JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8'));
    } catch (error) {
      throw new AppError('BAD_REQUEST', `The body is not valid JSON: ${(error as Error).message}`);
    }
    answer = { id, report: verifyExport(doc as never, registry, rules) };
  } catch (error) {
    answer = error instanceof AppError ? { id, error: { code: error.code, message: error.message } } : { id, error: { code: 'INTERNAL', message: (error as Error).message } };
  }
  parentPort!.postMessage(answer);
});
parentPort!.postMessage({ ready: [...games.keys()] });
