/**
 * The forecast-skill step run in a thread of its own. Scoring every city allocates far more than
 * it keeps: at 40 cities the render's thread grew a 300 MB heap for 14 MB alive at the end, and
 * V8 kept it while the unit workers ran, so the render's peak RSS was the step's garbage plus
 * theirs. A thread's heap leaves with it (docs/performance.md, B1's peak RSS).
 */
import { Worker } from 'node:worker_threads';
import type { SkillOutput } from './forecast-skills.js';
import { replyError } from './render-error.js';
import type { SkillsInput, SkillsReply } from './skills-worker.js';
import type { ThreadCode } from './thread-code.js';

/**
 * Its live set passes 128 MB at 200 cities (a row group's pairs as column values while they are
 * encoded, the files so far, the outlooks): 512 leaves room. The young generation is V8's usual
 * size: at 16 MB, as the unit workers have it, the step took half as long again at 40 cities.
 */
const LIMITS = { maxYoungGenerationSizeMb: 48, maxOldGenerationSizeMb: 512 };

export function computeSkillsInThread(input: SkillsInput, threads: ThreadCode): Promise<SkillOutput> {
  return new Promise((resolve, reject) => {
    const { url, argv } = threads.start('skills-worker');
    const worker = new Worker(url, { argv, workerData: input, resourceLimits: LIMITS });
    let reply: SkillsReply | undefined;
    worker.on('message', (message: SkillsReply) => {
      reply = message;
    });
    worker.on('error', reject);
    worker.on('exit', (code) => {
      if (reply?.done) return resolve(reply.output);
      if (reply) return reject(replyError(reply));
      reject(new Error(`the forecast-skill thread exited with code ${code} before it replied`));
    });
  });
}
