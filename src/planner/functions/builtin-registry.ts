import type { FunctionDefinition, WindowTvfMarker } from './function-definition.js';
import { FunctionRegistry } from './function-registry.js';
import { aggregateFunctions } from './aggregates/builtin-aggregates.js';
import { arithmeticFunctions } from './builtins/arithmetic.js';
import { collectionFunctions } from './builtins/collection.js';
import { comparisonFunctions } from './builtins/comparison.js';
import { conditionalFunctions } from './builtins/conditional.js';
import { jsonFunctions } from './builtins/json.js';
import { stringFunctions } from './builtins/string.js';
import { temporalFunctions } from './builtins/temporal.js';

/** Extra registry names for built-ins Flink knows under two names. */
const ALIASES: ReadonlyArray<readonly [string, string]> = [
  ['CHARACTER_LENGTH', 'CHAR_LENGTH'],
  ['SUBSTR', 'SUBSTRING'],
  ['CEILING', 'CEIL'],
  ['POW', 'POWER'],
  ['LCASE', 'LOWER'],
  ['UCASE', 'UPPER'],
];

let builtins: readonly FunctionDefinition[] | undefined;

/** Every built-in definition (created once per process; definitions are immutable). */
export function builtinFunctions(): readonly FunctionDefinition[] {
  builtins ??= [
    ...comparisonFunctions(),
    ...arithmeticFunctions(),
    ...stringFunctions(),
    ...temporalFunctions(),
    ...conditionalFunctions(),
    ...collectionFunctions(),
    ...jsonFunctions(),
    ...aggregateFunctions(),
    ...(['TUMBLE', 'HOP', 'CUMULATE', 'SESSION'] as const).map((name): WindowTvfMarker => ({ kind: 'window-tvf', name })),
  ];
  return builtins;
}

/**
 * A new registry holding all built-in functions under their Flink names (plus aliases). Each
 * TableEnvironment creates one and registers its temporary system functions into it.
 */
export function createBuiltinRegistry(): FunctionRegistry {
  const registry = new FunctionRegistry(builtinFunctions().map((d) => [d.name, d] as const));
  for (const [alias, target] of ALIASES) {
    const def = registry.lookup(target);
    if (def !== undefined && !registry.has(alias)) registry.register(alias, def);
  }
  return registry;
}
