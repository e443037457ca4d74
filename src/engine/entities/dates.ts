// Calendar dates written as ISO, slashed, "14 March 2026" or "March 14, 2026", made canonical (YYYY-MM-DD).

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** Regex source for a capitalised month name, full or abbreviated. */
export const MONTH_SOURCE =
  '(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)';

/** 1..12 for a month name matched by MONTH_SOURCE. */
export function monthNumber(name: string): number {
  return MONTHS.indexOf(name.slice(0, 3).toLowerCase()) + 1;
}

function daysIn(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** YYYY-MM-DD, or null when the parts name no real day (2026-02-30) or the year is out of 1000..2999. */
export function canonicalDate(year: number, month: number, day: number): string | null {
  if (!(year >= 1000 && year <= 2999 && month >= 1 && month <= 12 && day >= 1 && day <= daysIn(year, month))) return null;
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}
