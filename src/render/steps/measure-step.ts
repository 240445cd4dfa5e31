/**
 * What functions carry, refused (nothing of the render published) when the heaviest would not
 * fit; then the files made once: `_redirects` and the site's.
 */
import { FileWriter } from '../../output/file-writer.js';
import { RenderError } from '../../output/render-error.js';
import { redirectsFile } from '../redirects.js';
import { renderStep } from '../render-run.js';
import { mb } from '../render-summary.js';
import { FUNCTION_LIMIT_BYTES } from '../served-store.js';

export const measureStep = renderStep({
  name: 'measure',
  run: async (run) => {
    const served = await run.of('shards').measured;
    const limit = run.options.functionLimitBytes ?? FUNCTION_LIMIT_BYTES;
    if (served.functionBytes > limit) {
      throw new RenderError(
        `the shards' manifest would make each function about ${mb(served.functionBytes)} zipped, over ${mb(limit)}: serve fewer cities or days (SERVE_DAYS). Nothing was published.`,
      );
    }
    const out = new FileWriter(run.target.folder);
    out.put('_redirects', redirectsFile(run.store.cities.set().slugs));
    for (const [file, body] of await run.of('served').site) out.put(file, body);
    return { served, out };
  },
});
