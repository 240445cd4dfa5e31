/** A render that cannot be: an enumerated request did not answer 200, or the deploy would not fit. Nothing of it is served. */
export class RenderError extends Error {}

/** A failure as a render thread replies it: a RenderError's message as it is, any other error with its stack. */
export interface FailureReply {
  done: false;
  error: string;
  renderError: boolean;
}

export function failureReply(error: unknown): FailureReply {
  return {
    done: false,
    error: error instanceof RenderError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error),
    renderError: error instanceof RenderError,
  };
}

/**
 * The error a thread's failure reply stands for, in the thread it reached. Its stack is the failed
 * thread's, so a thread that passes a failure on (a forecast-skill helper's) replies it as it came.
 */
export function replyError(reply: FailureReply): Error {
  if (reply.renderError) return new RenderError(reply.error);
  const error = new Error(reply.error);
  error.stack = reply.error;
  return error;
}
