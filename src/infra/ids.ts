import { hostname } from 'node:os';

// Record ids for rows written with raw SQL, in the shape Prisma's `@default(cuid())` gives (cuid
// v1: `c`, the time in ms, a per-process counter, a host fingerprint, random), so they sort among
// the ids Prisma makes as Prisma's own do.

const pad = (text: string, size: number) => text.padStart(size, '0').slice(-size);
const blockSize = 4;
const base = 36 ** blockSize;

const fingerprint = (() => {
  let host: string;
  try {
    host = hostname();
  } catch {
    // Only the fingerprint's spread across hosts suffers; configuration stays in src/config.ts.
    host = 'hostname';
  }
  const hostId = host.split('').reduce((sum, char) => sum + char.charCodeAt(0), host.length + 36).toString(36);
  return pad(process.pid.toString(36), 2) + pad(hostId, 2);
})();

let counter = 0;
const randomBlock = () => pad(((Math.random() * base) << 0).toString(36), blockSize);

/** A new cuid (v1), as `@default(cuid())` would have made it. */
export function cuid(): string {
  counter = counter < base ? counter : 0;
  const count = pad((counter++).toString(36), blockSize);
  return `c${Date.now().toString(36)}${count}${fingerprint}${randomBlock()}${randomBlock()}`;
}
