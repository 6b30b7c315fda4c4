// Timing comparisons that hold on a busy machine: two calls are timed back to back, in
// alternating order, and the median of their ratios is compared, so a slow moment weighs on both
// calls of a pair instead of on one side of the comparison.

async function duration(call: () => Promise<unknown>) {
  const started = performance.now();
  await call();
  return performance.now() - started;
}

/** The median over `pairs` tries of how long `a` takes against `b` (1: the same time). */
export async function medianTimeRatio(a: (i: number) => Promise<unknown>, b: (i: number) => Promise<unknown>, pairs = 9) {
  const ratios: number[] = [];
  for (let i = 0; i < pairs; i++) {
    if (i % 2) {
      const tb = await duration(() => b(i));
      ratios.push((await duration(() => a(i))) / tb);
    } else {
      const ta = await duration(() => a(i));
      ratios.push(ta / (await duration(() => b(i))));
    }
  }
  return ratios.sort((x, y) => x - y)[pairs >> 1];
}

/** Within `tolerance` of each other: the slower takes at most that much longer, relatively, than the faster. */
export const similar = (ratio: number, tolerance = 0.3) => ratio > 1 - tolerance && ratio < 1 / (1 - tolerance);
