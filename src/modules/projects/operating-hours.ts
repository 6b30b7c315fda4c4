import { z } from 'zod';
import { badInput } from '../../errors.js';

// Operating hours: weekday keys "0" (Sunday) to "6", each a list of {start, end} in HH:MM,
// plus `tzname`, an IANA time zone. Stored as an object, returned as a JSON-encoded string.

const time = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM');
const slot = z
  .object({ start: time, end: time })
  .refine((s) => s.start < s.end, { message: 'start must be before end' });

export type OperatingHours = { tzname: string } & Partial<Record<'0' | '1' | '2' | '3' | '4' | '5' | '6', { start: string; end: string }[]>>;

const shape = z
  .object({
    tzname: z.string().refine(isTimeZone, 'must be an IANA time zone name'),
    ...Object.fromEntries(['0', '1', '2', '3', '4', '5', '6'].map((d) => [d, z.array(slot).optional()])),
  })
  .strict();

function isTimeZone(name: string) {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

export function parseOperatingHours(value: unknown): OperatingHours {
  let input = value;
  if (typeof value === 'string') {
    try {
      input = JSON.parse(value);
    } catch {
      throw badInput('operatingHours', 'operatingHours: is not valid JSON');
    }
  }
  const result = shape.safeParse(input);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = ['operatingHours', ...issue.path.map(String)].join('.');
    throw badInput('operatingHours', `${where}: ${issue.message}`);
  }
  return result.data as OperatingHours;
}

/** Whether `now` falls inside one of the day's slots, in the hours' own time zone. */
export function isWithin(hours: OperatingHours, now: Date): boolean {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: hours.tzname,
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(now);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const day = String(['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(get('weekday'))) as keyof OperatingHours;
  const clock = `${get('hour')}:${get('minute')}`;
  const slots = (hours[day] as { start: string; end: string }[] | undefined) ?? [];
  return slots.some((s) => clock >= s.start && clock < s.end);
}
