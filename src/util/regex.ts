// Regular expressions written by the user in the config: plain source, or /source/flags.

const SLASHED = /^\/(.+)\/([a-z]*)$/s;
const USER_FLAGS = new Set(['i', 'm', 's', 'u']);

/**
 * Compiles a user regex with `extraFlags` added (e.g. 'g'); throws an Error saying what is wrong.
 * Only i, m, s and u may be written: g and y would make repeated tests stateful.
 */
export function compileUserRegex(text: string, extraFlags = ''): RegExp {
  if (text === '') throw new Error('empty pattern');
  const slashed = SLASHED.exec(text);
  const source = slashed ? slashed[1]! : text;
  const flags = slashed ? slashed[2]! : '';
  for (const f of flags) if (!USER_FLAGS.has(f)) throw new Error(`flag ${f} is not allowed (use i, m, s, u)`);
  const all = [...new Set(flags + extraFlags)].join('');
  try {
    return new RegExp(source, all);
  } catch (err) {
    throw new Error((err as Error).message.replace(/^Invalid regular expression: /, ''));
  }
}
