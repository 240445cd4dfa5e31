/** A render that cannot be: an enumerated request did not answer 200, or the deploy would not fit. Nothing of it is served. */
export class RenderError extends Error {}
