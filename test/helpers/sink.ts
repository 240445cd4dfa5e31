/** A writable stream that keeps what is written to it: a command's stdout or stderr in this process. */
import { Writable } from 'node:stream';

export function sink(): { stream: Writable; text: () => string } {
  let text = '';
  const stream = new Writable({
    write: (chunk, _e, done) => {
      text += String(chunk);
      done();
    },
  });
  return { stream, text: () => text };
}
