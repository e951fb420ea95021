export * from './types.ts';
export * from './random.ts';
export * from './match.ts';
export * from './recorder.ts';
export * from './turn.ts';
export * from './registry.ts';
export * from './bots.ts';
export * from './notation.ts';
