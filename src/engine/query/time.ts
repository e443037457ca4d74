const DAY_MS = 86_400_000;
const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: DAY_MS, w: 7 * DAY_MS };

/** Midnight UTC of a real calendar day written YYYY-MM-DD, else undefined. */
export function parseDay(text: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(y, mo - 1, d);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return undefined;
  return ms;
}

export interface TimeValue {
  /** The instant the value names: midnight UTC of a day, or `now` minus an age. */
  at: number;
  /** For a day, the next midnight; absent for ages. */
  until?: number;
}

/** A day (YYYY-MM-DD) or an age before `now` (90d, 12h, 2w, 30m). */
export function parseTimeValue(text: string, now: number): TimeValue | undefined {
  const day = parseDay(text);
  if (day !== undefined) return { at: day, until: day + DAY_MS };
  const m = /^(\d{1,6})([mhdw])$/i.exec(text);
  if (!m) return undefined;
  return { at: now - Number(m[1]) * UNIT_MS[m[2]!.toLowerCase()]! };
}

export { DAY_MS };
