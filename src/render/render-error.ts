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

/** The error a thread's failure reply stands for, in the render's thread. */
export const replyError = (reply: FailureReply): Error => (reply.renderError ? new RenderError(reply.error) : new Error(reply.error));
