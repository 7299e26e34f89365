/** Timing helpers of the benchmark scripts. */

/** The `p` quantile (0-1) of ascending `sorted` values (nearest rank). */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
}

/** Runs `run(i)` for i = 0 … runs-1, after `warm` untimed runs; the times in ms, ascending. */
export async function timings(
  run: (i: number) => Promise<unknown>,
  runs: number,
  warm: number,
): Promise<number[]> {
  for (let i = 0; i < warm; i++) await run(i);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await run(i);
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b);
}
