/**
 * The machine a bench ran on, and what else had it: its cores, memory and Node version, and on
 * Linux the share of its CPU time the host gave to others while the bench ran (steal time, from
 * /proc/stat: a virtual machine whose host is busy runs everything slower, the baselines too).
 */
import { existsSync, readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';

/** The aggregate CPU line of /proc/stat: ticks stolen, and all ticks (user to steal); undefined off Linux. */
export function cpuTicks(stat = '/proc/stat'): { steal: number; total: number } | undefined {
  if (!existsSync(stat)) return undefined;
  const line = readFileSync(stat, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('cpu '));
  // user nice system idle iowait irq softirq steal (guest time is counted in user already)
  const ticks = line?.trim().split(/\s+/).slice(1, 9).map(Number);
  if (!ticks || ticks.length < 8 || ticks.some((t) => !Number.isFinite(t))) return undefined;
  return { steal: ticks[7]!, total: ticks.reduce((a, b) => a + b, 0) };
}

/** What the host took between two readings, as a share of every core's time; undefined without both. */
export function stolenShare(from: ReturnType<typeof cpuTicks>, to: ReturnType<typeof cpuTicks>): number | undefined {
  if (!from || !to || to.total <= from.total) return undefined;
  return (to.steal - from.steal) / (to.total - from.total);
}

/** The machine's line of the bench's table: cores, memory, Node, and the CPU time stolen while it ran. */
export function machineLine(stolen: number | undefined): string {
  const base = `${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  return stolen === undefined
    ? base
    : `${base}; the host took ${(100 * stolen).toFixed(1)}% of the cores' time while the bench ran (steal)`;
}
