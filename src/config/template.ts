import { stringify } from 'smol-toml';
import { CONFIG_SCHEMA, type KeySpec, envName } from './schema.js';

function range(spec: KeySpec): string {
  if (spec.type === 'integer' || spec.type === 'number') return ` (${spec.min}..${spec.max})`;
  if (spec.type === 'enum') return ` (${spec.values.join(' | ')})`;
  return '';
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
      lines.push(`# env: ${envName(section, key)}`);
      lines.push(`# ${stringify({ [key]: spec.default }).trim()}`);
      lines.push('');
    }
  }
  return lines.join('\n');
}
