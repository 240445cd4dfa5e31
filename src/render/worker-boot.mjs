// A render thread's entry: threads start without the parent's TypeScript loader, so register
// tsx here, then load the thread's module: the unit worker, or the one named in its argv.
import { register } from 'tsx/esm/api';

register();
await import(process.argv[2] ?? './worker.ts');
