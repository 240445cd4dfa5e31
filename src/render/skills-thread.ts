/**
 * The forecast-skill step run in threads of its own. Scoring every city allocates far more than
 * it keeps: at 40 cities the render's thread grew a 300 MB heap for 14 MB alive at the end, and
 * V8 kept it while the unit workers ran, so the render's peak RSS was the step's garbage plus
 * theirs. A thread's heap leaves with it (docs/performance.md, B1's peak RSS). The step has the
 * cores to itself but for the site's build: one thread writes, the others help it score.
 */
import { MessageChannel, type MessagePort, Worker } from 'node:worker_threads';
import { CityTurns } from './city-turns.js';
import type { SkillOutput } from './forecast-skills.js';
import { replyError } from './render-error.js';
import type { SkillsInput, SkillsReply } from './skills-worker.js';
import type { ThreadCode } from './thread-code.js';

/**
 * A thread's live set passes 128 MB at 200 cities (the row groups' pairs as column values while
 * they are encoded, the files so far, the outlooks): 512 leaves room. The step makes most of its
 * objects for one city's category and drops them: a young generation larger than V8's usual lets
 * them die young. One thread with 96 MB took 31.8 and 33.3 s at 200 cities against 37.8 and 38.4
 * s with 48, for a peak 45 MB higher. The threads share those 96 MB: two threads with 48 each
 * took 21.5 s where one took 24.3 s (the step alone), and in a full render 21.0 s where one took
 * 28.2 s, the site's build beside it. With 32 MB each they took as long and peaked as high: the
 * young generation is not what they hold (the step alone peaks at about 335 MB in two threads).
 */
const YOUNG_GENERATION_MB = 96;
const limits = (threads: number) => ({
  maxYoungGenerationSizeMb: Math.max(16, Math.floor(YOUNG_GENERATION_MB / threads)),
  maxOldGenerationSizeMb: 512,
});

type Paths = Omit<SkillsInput, 'turns' | 'helpers' | 'writer'>;

/** The step in `threads` threads (at least one): its output, or the first failure of any of them, which stops the others. */
export function computeSkillsInThreads(paths: Paths, code: ThreadCode, threads: number): Promise<SkillOutput> {
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
      const { url, argv } = code.start('skills-worker');
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
