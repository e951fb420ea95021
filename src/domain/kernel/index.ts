export * from './types.ts';
export * from './random.ts';
export * from './match.ts';
export * from './registry.ts';
