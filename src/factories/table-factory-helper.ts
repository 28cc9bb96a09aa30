import type { ConfigOption } from '../config/config-option.js';
import { Configuration } from '../config/configuration.js';
import { ValidationError } from '../errors/sluice-error.js';
import type { DynamicTableFactoryContext } from './dynamic-table-factory.js';
import type { Factory } from './factory.js';
import { FactoryOptions } from './factory-options.js';
import {
  isDecodingFormatFactory,
  isEncodingFormatFactory,
  type DecodingFormat,
  type DecodingFormatFactory,
  type EncodingFormat,
  type EncodingFormatFactory,
} from './format.js';
import { nearest } from '../util/suggest.js';

/**
 * Validates a table's options against what its factory declares and discovers its formats (Flink's
 * `FactoryUtil.TableFactoryHelper`). A factory creates one, discovers formats, then calls `validate()`
 * before reading any option, so every user mistake is reported at once, before any work starts.
 *
 * @example
 * const helper = createTableFactoryHelper(this, ctx);
 * const format = helper.discoverDecodingFormat(FactoryOptions.FORMAT);
 * helper.validate();
 * const topic = helper.options.get(KafkaOptions.TOPIC);
 */
export class TableFactoryHelper {
  /** All table options. Read typed values only after `validate()`. */
  readonly options: Configuration;
  private readonly consumed = new Set<string>();
  private readonly deprecated = new Set<string>();
  private readonly consumedPrefixes: string[] = [];
  private readonly formatOptions: { prefix: string; factory: Factory }[] = [];

  constructor(
    private readonly factory: Factory,
    private readonly ctx: DynamicTableFactoryContext,
  ) {
    this.options = new Configuration(ctx.table.options);
    this.consume([FactoryOptions.CONNECTOR, FactoryOptions.PROPERTY_VERSION]);
    this.consume(factory.requiredOptions());
    this.consume(factory.optionalOptions());
    for (const key of this.options.keys()) if (key.startsWith('scan.watermark.')) this.consumed.add(key);
    this.consume(Object.values(FactoryOptions).filter((o) => o.key.startsWith('scan.watermark.')));
    this.consumedPrefixes.push(...(factory.prefixesPassedThrough?.() ?? []));
  }

  /**
   * The decoding format named by `formatOption` (`format`, `key.format`, `value.format`), with its
   * options read from `<id>.`, `key.<id>.` or `value.<id>.`. Undefined if the option is not set.
   */
  discoverOptionalDecodingFormat(formatOption: ConfigOption<string | undefined>): DecodingFormat | undefined {
    return this.discoverFormat(formatOption, isDecodingFormatFactory, 'DecodingFormatFactory', 'scan', (f: DecodingFormatFactory, conf) =>
      f.createDecodingFormat(this.ctx, conf),
    );
  }

  discoverDecodingFormat(formatOption: ConfigOption<string | undefined>): DecodingFormat {
    const f = this.discoverOptionalDecodingFormat(formatOption);
    if (!f) throw new ValidationError(`Could not find required scan format '${formatOption.key}'.`);
    return f;
  }

  discoverOptionalEncodingFormat(formatOption: ConfigOption<string | undefined>): EncodingFormat | undefined {
    return this.discoverFormat(formatOption, isEncodingFormatFactory, 'EncodingFormatFactory', 'sink', (f: EncodingFormatFactory, conf) =>
      f.createEncodingFormat(this.ctx, conf),
    );
  }

  discoverEncodingFormat(formatOption: ConfigOption<string | undefined>): EncodingFormat {
    const f = this.discoverOptionalEncodingFormat(formatOption);
    if (!f) throw new ValidationError(`Could not find required sink format '${formatOption.key}'.`);
    return f;
  }

  /**
   * Checks, in Flink's order: required options present, no unsupported keys, every declared value
   * parses. Throws one ValidationError that lists every problem of the first failing kind.
   */
  validate(): void {
    this.validateExcept();
  }

  /** `validate()`, also accepting any key under the given prefixes (e.g. `properties.`). */
  validateExcept(...prefixes: string[]): void {
    const missing = this.factory
      .requiredOptions()
      .filter((o) => !this.options.contains(o))
      .map((o) => o.key);
    for (const { prefix, factory } of this.formatOptions) {
      for (const o of factory.requiredOptions()) if (!this.options.contains(prefix + o.key)) missing.push(prefix + o.key);
    }
    if (missing.length > 0) {
      throw new ValidationError(`One or more required options are missing.\n\nMissing required options are:\n\n${missing.sort().join('\n')}`);
    }
    const allPrefixes = [...this.consumedPrefixes, ...prefixes];
    const unsupported = this.options
      .keys()
      .filter((k) => !this.consumed.has(k) && !allPrefixes.some((p) => k.startsWith(p)))
      .sort();
    if (unsupported.length > 0) {
      const supported = [...this.consumed].sort();
      const hints = unsupported
        .map((k) => [k, nearest(k, this.consumed)] as const)
        .filter(([, s]) => s !== undefined)
        .map(([k, s]) => `'${k}': did you mean '${s}'?`);
      throw new ValidationError(
        `Unsupported options found for '${this.factory.factoryIdentifier}'.\n\n` +
          `Unsupported options:\n\n${unsupported.join('\n')}\n\n` +
          (hints.length > 0 ? `${hints.join('\n')}\n\n` : '') +
          `Supported options:\n\n${supported.map((k) => (this.deprecated.has(k) ? `${k} (deprecated)` : k)).join('\n')}` +
          (allPrefixes.length > 0 ? `\n\nand any key starting with: ${allPrefixes.join(', ')}` : ''),
      );
    }
    for (const option of [...this.factory.requiredOptions(), ...this.factory.optionalOptions()]) {
      this.options.getOptional(option);
    }
    for (const { prefix, factory } of this.formatOptions) {
      const sub = this.options.subConfiguration(prefix);
      for (const option of [...factory.requiredOptions(), ...factory.optionalOptions()]) {
        const found = option.allKeys().find((k) => sub.contains(k));
        if (found !== undefined) option.parseValue(sub.getString(found), prefix + found);
      }
    }
    const group = this.options.getOptional(FactoryOptions.WATERMARK_ALIGNMENT_GROUP);
    const drift = this.options.getOptional(FactoryOptions.WATERMARK_ALIGNMENT_MAX_DRIFT);
    if ((group === undefined) !== (drift === undefined)) {
      throw new ValidationError(
        `Error configuring watermark for '${this.ctx.identifier.object}', 'scan.watermark.alignment.group' and 'scan.watermark.alignment.max-drift' must be set when configuring watermark alignment`,
      );
    }
  }

  private consume(options: readonly ConfigOption<unknown>[], prefix = ''): void {
    for (const o of options) {
      this.consumed.add(prefix + o.key);
      for (const k of o.fallbackKeys) this.consumed.add(prefix + k);
      for (const k of o.deprecatedKeys) {
        this.consumed.add(prefix + k);
        this.deprecated.add(prefix + k);
      }
    }
  }

  private discoverFormat<F extends Factory, R>(
    formatOption: ConfigOption<string | undefined>,
    is: (f: Factory) => f is F,
    kind: 'DecodingFormatFactory' | 'EncodingFormatFactory',
    direction: 'scan' | 'sink',
    create: (factory: F, conf: Configuration) => R,
  ): R | undefined {
    this.consume([formatOption]);
    const id = this.options.get(formatOption);
    if (id === undefined) return undefined;
    const factory = this.ctx.factories.discover(kind, is, id);
    // The prefix follows the key the user actually wrote: `'format' = 'json'` reads `json.*` even when the
    // connector asks for `value.format`, whose fallback key it is.
    const foundUnder = formatOption.allKeys().find((k) => this.options.contains(k)) ?? formatOption.key;
    const keyPrefix = foundUnder.endsWith('format') ? foundUnder.slice(0, -'format'.length) : '';
    const prefix = `${keyPrefix}${id}.`;
    this.consume(factory.requiredOptions(), prefix);
    this.consume(factory.optionalOptions(), prefix);
    for (const p of factory.prefixesPassedThrough?.() ?? []) this.consumedPrefixes.push(prefix + p);
    this.formatOptions.push({ prefix, factory });
    try {
      return create(factory, this.options.subConfiguration(prefix));
    } catch (e) {
      if (e instanceof ValidationError) throw e;
      throw new ValidationError(`Error creating ${direction} format '${id}' in option space '${prefix}'.`, { cause: e });
    }
  }
}

export function createTableFactoryHelper(factory: Factory, ctx: DynamicTableFactoryContext): TableFactoryHelper {
  return new TableFactoryHelper(factory, ctx);
}
