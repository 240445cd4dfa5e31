/**
 * Preloaded (`node --import`) into B16's server: its clock reads BENCH_NOW (ms since epoch), so
 * that the bench workload's fixed days are "today" and the outlook it left reaches the days asked.
 */
const at = Number(process.env.BENCH_NOW);
if (Number.isFinite(at) && at > 0) Date.now = () => at;
