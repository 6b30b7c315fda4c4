import type { OperatingHours } from '../projects/operating-hours.js';

// SLA targets count working time: with the project's operating hours on, only the time inside
// their slots (in their own time zone, daylight saving included) counts; with them off, or with no
// slot on any day, every second counts (calendar time).

const formats = new Map<string, Intl.DateTimeFormat>();
function format(tz: string) {
  let f = formats.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: tz, year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric', hourCycle: 'h23' });
    formats.set(tz, f);
  }
  return f;
}

/** The wall-clock date and time at instant `t` in `tz`, as fields. */
function wallClock(tz: string, t: number) {
  const parts = Object.fromEntries(format(tz).formatToParts(new Date(t)).map((p) => [p.type, p.value]));
  return { y: Number(parts.year), m: Number(parts.month), d: Number(parts.day), h: Number(parts.hour), mi: Number(parts.minute), s: Number(parts.second) };
}

/** Milliseconds `tz` is ahead of UTC at instant `t`. */
function offsetAt(tz: string, t: number) {
  const w = wallClock(tz, t);
  return Date.UTC(w.y, w.m - 1, w.d, w.h, w.mi, w.s) - Math.floor(t / 1000) * 1000;
}

/** The instant the wall clock of `tz` shows `hh:mm` on the given day. */
function instantOf(tz: string, y: number, m: number, d: number, clock: string) {
  const [h, mi] = clock.split(':').map(Number);
  const guess = Date.UTC(y, m - 1, d, h, mi);
  const first = guess - offsetAt(tz, guess);
  const second = guess - offsetAt(tz, first);
  return second;
}

type Slot = { start: string; end: string };

/** `start` plus `seconds` of working time. */
export function addWorkingTime(hours: OperatingHours | null, start: Date, seconds: number): Date {
  const ms = Math.round(seconds * 1000);
  const days = hours ? (['0', '1', '2', '3', '4', '5', '6'] as const).map((d) => ((hours[d] as Slot[] | undefined) ?? []).slice().sort((a, b) => (a.start < b.start ? -1 : 1))) : [];
  if (!hours || days.every((slots) => !slots.length)) return new Date(start.getTime() + ms);
  let remaining = ms;
  const from = start.getTime();
  const today = wallClock(hours.tzname, from);
  // Walk the days from the start's own (in the hours' time zone); a year of days bounds the walk.
  for (let i = 0; i < 400; i++) {
    const date = new Date(Date.UTC(today.y, today.m - 1, today.d + i));
    const [y, m, d] = [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate()];
    for (const slot of days[date.getUTCDay()]) {
      const open = Math.max(instantOf(hours.tzname, y, m, d, slot.start), from);
      const close = instantOf(hours.tzname, y, m, d, slot.end);
      if (close <= open) continue;
      if (remaining <= close - open) return new Date(open + remaining);
      remaining -= close - open;
    }
  }
  return new Date(from + ms);
}
