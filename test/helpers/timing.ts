// Timing comparisons that hold on a busy machine: two calls are timed back to back, in
// alternating order, and their fastest times are compared. A busy machine only ever adds time to a
// call, so the fastest of several tries is the closest to what the call itself costs, whatever
// the other tests running beside it do (a median still moved by a third under load).

async function duration(call: () => Promise<unknown>) {
  const started = performance.now();
  await call();
  return performance.now() - started;
}

/** Over `pairs` tries of each, how long `a` takes against `b` at their fastest (1: the same time). */
export async function fastestTimeRatio(a: (i: number) => Promise<unknown>, b: (i: number) => Promise<unknown>, pairs = 9) {
  let fastestA = Infinity;
  let fastestB = Infinity;
  for (let i = 0; i < pairs; i++) {
    if (i % 2) {
      fastestB = Math.min(fastestB, await duration(() => b(i)));
      fastestA = Math.min(fastestA, await duration(() => a(i)));
    } else {
      fastestA = Math.min(fastestA, await duration(() => a(i)));
      fastestB = Math.min(fastestB, await duration(() => b(i)));
    }
  }
  return fastestA / fastestB;
}

/** Within `tolerance` of each other: the slower takes at most that much longer, relatively, than the faster. */
export const similar = (ratio: number, tolerance = 0.3) => ratio > 1 - tolerance && ratio < 1 / (1 - tolerance);
