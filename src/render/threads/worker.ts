/**
 * A render worker: opens the served store read-only, then puts each batch of units (or month of
 * bulk files) it is given into the render folder, reporting what it wrote or the first failure.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { type FailureReply, failureReply } from '../../output/render-error.js';
import { openTasks, type TaskInput, type TaskResult, type WorkerTask } from './tasks.js';

export type WorkerReply = ({ done: true } & TaskResult) | FailureReply;

const tasks = openTasks(workerData as TaskInput);

parentPort!.on('message', (task: WorkerTask) => {
  if (task === null) {
    tasks.close();
    return parentPort!.close();
  }
  tasks.run(task).then(
    (result) => parentPort!.postMessage({ done: true, ...result } satisfies WorkerReply),
    (error: unknown) => parentPort!.postMessage(failureReply(error) satisfies WorkerReply),
  );
});
parentPort!.postMessage('ready');
