/**
 * The tests run as the local server and the command line do: their contexts may open SQLite
 * stores (contexts.ts, useSqlite). The bundle test runs the functions as deployed, without it.
 */
import { openStore } from '../../src/store/store.js';
import { useSqlite } from '../../src/wiring/contexts.js';

useSqlite(openStore);
