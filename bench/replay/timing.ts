/**
 * Timing helpers for a shared, noisy machine. Figures are medians of interleaved runs. Before each run the heap is
 * collected (when the runtime exposes `gc`) and left alone for a moment: V8 sweeps the collected heap on background
 * threads, and that sweep, proportional to the heap rather than to the work measured, would otherwise land inside the
 * next run. Each run also records the process's CPU time, which other load on the machine disturbs far less than
 * wall-clock time.
 */
import { setTimeout as sleep } from 'node:timers/promises';

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export interface Timed<T> {
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly result: T;
}

/** Times one run of `work`; an asynchronous run is timed until it settles. */
export async function timeOnce<T>(work: () => T | Promise<T>, settleMs: number): Promise<Timed<T>> {
  globalThis.gc?.();
  await sleep(settleMs);
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const result = await work();
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  return { wallMs, cpuMs: (cpu.user + cpu.system) / 1_000, result };
}

export interface Samples {
  readonly wallMs: number[];
  readonly cpuMs: number[];
}

export interface MeasurePlan {
  readonly warmups: number;
  readonly repetitions: number;
  /** The pause after collecting the heap before each run; larger heaps take longer to sweep. */
  readonly settleMs: number;
}

export interface Measurements {
  readonly samples: Map<string, Samples>;
  /** Cases that threw, with their first error; a case that throws is not run again. */
  readonly failures: Map<string, Error>;
}

/**
 * Runs every case `warmups + repetitions` times, round-robin with the starting case rotated each round, so a slow
 * spell on the machine spreads over all cases instead of landing on one. Returns the measured samples per case.
 */
export async function measureInterleaved<T>(
  cases: ReadonlyMap<string, () => T | Promise<T>>,
  plan: MeasurePlan,
  check: (name: string, result: T) => void = () => {},
): Promise<Measurements> {
  const names = [...cases.keys()];
  const samples = new Map<string, Samples>(names.map((name) => [name, { wallMs: [], cpuMs: [] }]));
  const failures = new Map<string, Error>();
  for (let round = 0; round < plan.warmups + plan.repetitions; round += 1) {
    for (let offset = 0; offset < names.length; offset += 1) {
      const name = names[(round + offset) % names.length]!;
      if (failures.has(name)) continue;
      let timed: Timed<T>;
      try {
        timed = await timeOnce(cases.get(name)!, plan.settleMs);
      } catch (error) {
        failures.set(name, error instanceof Error ? error : new Error(String(error)));
        continue;
      }
      check(name, timed.result);
      if (round >= plan.warmups) {
        samples.get(name)!.wallMs.push(timed.wallMs);
        samples.get(name)!.cpuMs.push(timed.cpuMs);
      }
    }
  }
  return { samples, failures };
}
