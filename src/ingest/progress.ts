/** Progress output: a redrawn bar on a terminal, a line every tenth of the way otherwise. */
import type { IngestProgress } from './ingest.js';

export function progressReporter(stream: NodeJS.WritableStream & { isTTY?: boolean }, label: string): (p: IngestProgress) => void {
  let lastTenth = -1;
  let lastDraw = 0;
  return ({ done, total, failed }) => {
    const fraction = total === 0 ? 1 : done / total;
    const failedText = failed > 0 ? `, ${failed} failed` : '';
    if (stream.isTTY) {
      const now = Date.now();
      if (done < total && now - lastDraw < 100) return;
      lastDraw = now;
      const width = 30;
      const filled = Math.round(fraction * width);
      stream.write(
        `\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${Math.floor(fraction * 100)}% ${done}/${total}${failedText}`,
      );
      if (done === total) stream.write('\n');
    } else {
      const tenth = Math.floor(fraction * 10);
      if (tenth === lastTenth) return;
      lastTenth = tenth;
      stream.write(`${label}: ${tenth * 10}% (${done}/${total} city-days${failedText})\n`);
    }
  };
}
