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
 * Its live set passes 128 MB at 200 cities (the row groups' pairs as column values while they are
 * encoded, the files so far, the outlooks): 512 leaves room. The step makes most of its objects
 * for one city's category and drops them: a young generation twice V8's usual size lets them die
 * young. At 200 cities (the step alone, two runs each) 96 MB took 31.8 and 33.3 s (37.8 and 39.4
 * CPU-s) against 37.8 and 38.4 s (48.1 and 49.2) at 48 MB, for a peak 45 MB higher, which stays
 * under the unit workers' later peak; at 16 MB, as the unit workers have it, the step took half as
 * long again at 40 cities.
 */
const LIMITS = { maxYoungGenerationSizeMb: 96, maxOldGenerationSizeMb: 512 };

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
