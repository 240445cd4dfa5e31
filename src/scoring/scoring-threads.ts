/**
 * The forecast-skill step run in threads of its own. Scoring every city allocates far more than
 * it keeps: at 40 cities the render's thread grew a 300 MB heap for 14 MB alive at the end, and
 * V8 kept it while the unit workers ran, so the render's peak RSS was the step's garbage plus
 * theirs. A thread's heap leaves with it (docs/performance.md, B1's peak RSS). The step has the
 * cores to itself but for the site's build: one thread writes, the others help it score.
 */
import { MessageChannel, type MessagePort, Worker } from 'node:worker_threads';
import { replyError } from '../output/render-error.js';
import { CityTurns } from './city-turns.js';
import type { SkillOutput } from './score-cities.js';
import type { SkillsInput, SkillsReply } from './scoring-worker.js';

/**
 * The threads' young generation, shared: the step makes most of its objects for one city's
 * category and drops them, and a larger young generation lets more of them die young, but each
 * thread's young generation is memory the process holds. At 200 cities on two cores (a full
 * render, `MALLOC_ARENA_MAX=2`) the step peaked at 476 to 508 MB of the process's RSS with 96 MB
 * (48 a thread), 480 to 488 MB with 64, 436 to 445 MB with 48 and 603 MB with 160, taking 25 to
 * 28 s with any of them (the host's noise is as large as the differences): 48 keeps the render's
 * peak well under its 512 MB target. The old generation may grow to 512 MB: capped at 96 the step
 * peaked 25 MB lower and took a third longer, collecting all the time.
 */
const YOUNG_GENERATION_MB = 48;
const limits = (threads: number) => ({
  maxYoungGenerationSizeMb: Math.max(16, Math.floor(YOUNG_GENERATION_MB / threads)),
  maxOldGenerationSizeMb: 512,
});

type Paths = Omit<SkillsInput, 'turns' | 'helpers' | 'writer'>;

/** Where a scoring thread's code is, and its argv: the render's bundle of its threads, or the source through tsx. */
export type ThreadStart = () => { url: URL; argv: string[] };

/** The step in `threads` threads (at least one): its output, or the first failure of any of them, which stops the others. */
export function computeSkillsInThreads(paths: Paths, entry: ThreadStart, threads: number): Promise<SkillOutput> {
  const turns = CityTurns.memory();
  const channels = Array.from({ length: Math.max(0, threads - 1) }, () => new MessageChannel());
  const resourceLimits = limits(channels.length + 1);
  return new Promise((resolve, reject) => {
    const started: Worker[] = [];
    let stopping = false;
    const stop = (error: Error) => {
      if (stopping) return;
      stopping = true;
      // Once every thread has stopped: the render then removes what they were writing.
      void Promise.allSettled(started.map((worker) => worker.terminate())).then(() => reject(error));
    };
    const start = (input: SkillsInput, ports: MessagePort[]) => {
      const { url, argv } = entry();
      const worker = new Worker(url, { argv, workerData: input, transferList: ports, resourceLimits });
      started.push(worker);
      worker.on('error', stop);
      return worker;
    };
    const helpers = channels.map((c) => c.port1);
    const writer = start({ ...paths, turns, helpers }, helpers);
    let reply: SkillsReply | undefined;
    writer.on('message', (message: SkillsReply) => {
      reply = message;
    });
    writer.on('exit', (exitCode) => {
      if (reply?.done) return resolve(reply.output);
      stop(reply ? replyError(reply) : new Error(`the forecast-skill thread exited with code ${exitCode} before it replied`));
    });
    for (const { port2 } of channels) {
      start({ ...paths, turns, writer: port2 }, [port2]).on('exit', (exitCode) => {
        if (exitCode !== 0) stop(new Error(`a forecast-skill helper thread exited with code ${exitCode}`));
      });
    }
  });
}
