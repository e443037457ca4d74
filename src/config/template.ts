import { stringify } from 'smol-toml';
import { CONFIG_SCHEMA, type FieldSpec, type KeySpec, envName } from './schema.js';

function range(spec: KeySpec): string {
  if (spec.type === 'integer' || spec.type === 'number') return ` (${spec.min}..${spec.max})`;
  if (spec.type === 'enum') return ` (${spec.values.join(' | ')})`;
  return '';
}

/** The fields of a table list, one comment line each. */
function fieldLines(section: string, key: string, fields: Record<string, FieldSpec>): string[] {
  const lines = [`# Each entry is a [[${section}.${key}]] table with:`];
  for (const [name, field] of Object.entries(fields)) {
    const when = field.required ? 'required' : `default ${JSON.stringify(field.default)}`;
    lines.push(`#   ${name}: ${field.doc}${range(field)} (${when})`);
  }
  return lines;
}

/** A commented config file holding every key at its default, each line commented out. */
export function defaultConfigText(): string {
  const lines = [
    '# trove configuration. Every key below shows its default; uncomment to change it.',
    '# Each key can also be set with the environment variable TROVE_<SECTION>_<KEY>',
    '# or the flag --set section.key=value. Unknown keys stop start-up.',
    '',
  ];
  for (const [section, keys] of Object.entries(CONFIG_SCHEMA as Record<string, Record<string, KeySpec>>)) {
    lines.push(`[${section}]`);
    for (const [key, spec] of Object.entries(keys)) {
      lines.push(`# ${spec.doc}${range(spec)}`);
      if (spec.type === 'tables') lines.push(...fieldLines(section, key, spec.fields));
      lines.push(`# env: ${envName(section, key)}`);
      lines.push(`# ${stringify({ [key]: spec.default }).trim()}`);
      lines.push('');
    }
  }
  return lines.join('\n');
}
