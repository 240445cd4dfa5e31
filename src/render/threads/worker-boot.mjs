// A render thread's entry where its bundle could not be made (thread-code.ts): threads start
// without the parent's TypeScript loader, so register tsx here, then load the module in argv.
import { register } from 'tsx/esm/api';

register();
await import(process.argv[2]);
