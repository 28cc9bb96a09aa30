import type { ConfigOption } from '../config/config-option.js';
import type { OptionTypeDescriptor } from '../config/option-type.js';
import { isSinkFactory, isSourceFactory } from '../factories/dynamic-table-factory.js';
import type { Factory } from '../factories/factory.js';
import { isDecodingFormatFactory, isEncodingFormatFactory } from '../factories/format.js';

/** `source, sink` / `decode, encode`: what a factory can do. */
export function factoryKinds(f: Factory): string {
  const kinds: string[] = [];
  if (isSourceFactory(f)) kinds.push('source');
  if (isSinkFactory(f)) kinds.push('sink');
  if (isDecodingFormatFactory(f)) kinds.push('decode');
  if (isEncodingFormatFactory(f)) kinds.push('encode');
  return `[${kinds.join(', ')}]`;
}

interface OptionRow {
  readonly key: string;
  readonly type: string;
  readonly default: string;
  readonly required: boolean;
  readonly description: string;
}

function rows(f: Factory): OptionRow[] {
  const toRow = (o: ConfigOption<unknown>, required: boolean): OptionRow => ({
    key: o.key + (o.deprecatedKeys.length > 0 ? ` (deprecated: ${o.deprecatedKeys.join(', ')})` : ''),
    type: typeName(o.typeDescriptor),
    default: o.hasDefaultValue ? o.formatValue(o.defaultValue as never) : '(none)',
    required,
    description: o.description,
  });
  return [...f.requiredOptions().map((o) => toRow(o, true)), ...f.optionalOptions().map((o) => toRow(o, false))];
}

/**
 * One factory's options from its options class: the single source of both `sluice connectors <name>`
 * and the generated docs/connectors/*.md, so the two cannot disagree.
 */
export function describeOptions(f: Factory, style: 'text' | 'markdown'): string {
  const rs = rows(f);
  const prefixes = f.prefixesPassedThrough?.() ?? [];
  if (style === 'markdown') {
    let md = `# ${f.factoryIdentifier}\n\n${f.description ?? ''}\n\nKind: ${factoryKinds(f)}\n\n`;
    md += '| Key | Required | Default | Type | Description |\n| --- | --- | --- | --- | --- |\n';
    for (const r of rs) md += `| \`${r.key}\` | ${r.required ? 'yes' : 'no'} | ${r.default === '(none)' ? '(none)' : `\`${r.default}\``} | ${r.type} | ${r.description.replaceAll('|', '\\|').replaceAll('\n', ' ')} |\n`;
    if (prefixes.length > 0) md += `\nKeys starting with ${prefixes.map((p) => `\`${p}\``).join(', ')} are passed through.\n`;
    return md;
  }
  let text = `${f.factoryIdentifier} ${factoryKinds(f)}\n${f.description ? f.description + '\n' : ''}\n`;
  for (const r of rs) {
    text += `  ${r.key}${r.required ? ' (required)' : ''}\n    type: ${r.type}, default: ${r.default}\n`;
    if (r.description) text += `    ${r.description}\n`;
  }
  if (prefixes.length > 0) text += `\n  Keys starting with ${prefixes.join(', ')} are passed through.\n`;
  return text + '\n';
}

function typeName(t: OptionTypeDescriptor): string {
  switch (t.kind) {
    case 'enum':
      return `Enum (${t.values.join(', ')})`;
    case 'list':
      return `List<${typeName(t.element)}>`;
    case 'memory':
      return 'MemorySize';
    case 'duration':
      return 'Duration';
    default:
      return t.kind.charAt(0).toUpperCase() + t.kind.slice(1);
  }
}
