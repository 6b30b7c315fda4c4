import { badInput } from '../../errors.js';

// An SLA target is a duration: a number of seconds, or text such as "30m", "4h", "1d 2h", "1h30m"
// or ISO 8601 ("PT4H", "P1D"). From one second to a year.

const units: Record<string, number> = { d: 86_400, h: 3_600, m: 60, s: 1 };
export const maxTargetSeconds = 366 * 86_400;

function parse(value: unknown): number | null {
  if (typeof value === 'number') return Number.isInteger(value) ? value : null;
  if (typeof value !== 'string') return null;
  const text = value.trim().toLowerCase();
  if (/^\d+$/.test(text)) return Number(text);
  const iso = /^p(?:(\d+)d)?(?:t(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?)?$/.exec(text);
  if (iso && text !== 'p' && text !== 'pt' && !text.endsWith('t')) {
    const [, d, h, m, s] = iso.map((x) => Number(x ?? 0));
    return d * 86_400 + h * 3_600 + m * 60 + s;
  }
  const compact = text.replace(/\s+/g, '');
  if (!/^(\d+[dhms])+$/.test(compact)) return null;
  let total = 0;
  for (const [, n, unit] of compact.matchAll(/(\d+)([dhms])/g)) total += Number(n) * units[unit];
  return total;
}

/**
 * Seconds, or a 400 naming `field`. Undefined passes through (unchanged); null, false and "none"
 * mean no target (REST drops a null body key, so it says false or "none").
 */
export function targetSeconds(field: string, value: unknown): number | null | undefined {
  if (value === undefined) return value;
  if (value === null || value === false || value === 'none') return null;
  const seconds = parse(value);
  if (seconds === null) throw badInput(field, `${field}: must be a duration: seconds, or text such as "30m", "4h", "1d 2h" or "PT4H"`);
  if (seconds < 1) throw badInput(field, `${field}: must be at least one second`);
  if (seconds > maxTargetSeconds) throw badInput(field, `${field}: must be at most 366 days`);
  return seconds;
}
