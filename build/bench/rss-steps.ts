/**
 * The peak RSS within each step of a render: the render process's resident set (worker threads
 * included) sampled from outside it every 50 ms (/proc/<pid>/status, on Linux), each sample given
 * to the step whose lap contains it. The render reports only each step's seconds, so the laps'
 * bounds are made again from them, back from the moment the render returned (its last lap ends
 * there). Between two samples of the same step, a rise of the process's high-water mark (VmHWM)
 * is a peak within that step that no sample caught.
 */
import { readFileSync } from 'node:fs';

const EVERY_MS = 50;

/** The steps in the order render.ts runs them (its summary lists `measure` before `tasks`). */
export const STEP_ORDER = ['served', 'skills', 'shards', 'plan', 'inputs', 'tasks', 'measure', 'manifest', 'finish'] as const;

interface Sample {
  /** Epoch milliseconds. */
  at: number;
  rss: number;
  hwm: number;
}

/** Epoch milliseconds, with performance.now()'s resolution: the same clock in the bench and in its render child. */
export const epochMs = () => performance.timeOrigin + performance.now();

/** Samples the RSS of process `pid` until stopped. */
export class RssSampler {
  private readonly samples: Sample[] = [];
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly pid: number) {
    this.sample();
    this.timer = setInterval(() => this.sample(), EVERY_MS);
  }

  private sample(): void {
    let status: string;
    try {
      status = readFileSync(`/proc/${this.pid}/status`, 'utf8');
    } catch {
      return; // not Linux, or the process has ended
    }
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) * 1024;
    const [rss, hwm] = [kb('VmRSS'), kb('VmHWM')];
    if (Number.isFinite(rss)) this.samples.push({ at: epochMs(), rss, hwm });
  }

  /**
   * Stops sampling, and gives each step's peak RSS in bytes (0 where no sample fell in it), for a
   * render whose steps took `steps` seconds and which returned at `endedAt` (epoch ms).
   */
  stop(steps: Record<string, number>, endedAt: number): Record<string, number> {
    clearInterval(this.timer);
    const bounds = stepBounds(steps, endedAt);
    const peaks: Record<string, number> = Object.fromEntries(bounds.map((b) => [b.step, 0]));
    const stepAt = (at: number) => bounds.find((b) => at >= b.from && at < b.to)?.step;
    let last: { sample: Sample; step: string | undefined } | undefined;
    for (const sample of this.samples) {
      const step = stepAt(sample.at);
      if (step) {
        let peak = Math.max(peaks[step]!, sample.rss);
        if (last?.step === step && sample.hwm > last.sample.hwm) peak = Math.max(peak, sample.hwm);
        peaks[step] = peak;
      }
      last = { sample, step };
    }
    return peaks;
  }
}

/** Each step's interval in epoch milliseconds, made back from the end of the last. */
function stepBounds(steps: Record<string, number>, endedAt: number): Array<{ step: string; from: number; to: number }> {
  const order = [...STEP_ORDER, ...Object.keys(steps).filter((k) => !(STEP_ORDER as readonly string[]).includes(k))];
  const total = order.reduce((sum, k) => sum + (steps[k] ?? 0) * 1000, 0);
  let from = endedAt - total;
  return order.map((step) => {
    const to = from + (steps[step] ?? 0) * 1000;
    const bound = { step, from, to };
    from = to;
    return bound;
  });
}
