#!/usr/bin/env node
/** The command line: parses flags and calls library functions, nothing more. */
import { Command, CommanderError } from 'commander';
import { dayString } from '../src/domain/dates.js';
import { parseIngestArgs, UsageError, type RawIngestArgs } from '../src/ingest/args.js';
import { runIngest } from '../src/ingest/run.js';
import { DEFAULT_DB_PATH } from '../src/store/store.js';

const defaultDb = () => process.env.POLLEN_DB ?? DEFAULT_DB_PATH;
const today = () => Math.floor(Date.now() / 86_400_000);

const program = new Command('pollen')
  .description('Build, inspect and serve the pollen, weather and air-quality API.')
  .exitOverride()
  .showHelpAfterError();

program
  .command('ingest')
  .description('Pull provider data into the SQLite store, skipping city-days already complete.')
  .option('--provider <id>', 'data provider', 'sample')
  .option('--from <date>', 'first UTC day, YYYY-MM-DD')
  .option('--to <date>', 'last UTC day (inclusive), YYYY-MM-DD')
  .option('--days <n>', 'the N days ending yesterday (default 365 when no dates are given)')
  .option('--cities <slugs>', 'comma-separated city slugs (default: all)')
  .option('--db <path>', 'store file (default: $POLLEN_DB or snapshots/pollen.db)')
  .option('--refresh', 'fetch and overwrite days already stored')
  .action(async (raw: RawIngestArgs) => {
    const args = parseIngestArgs(raw, today(), defaultDb());
    const summary = await runIngest(args, process.stderr, process.stdout);
    if (summary.failures.length > 0) process.exitCode = 1;
  });

program
  .command('start')
  .description('Fill an empty store with a year of sample data, ready to serve.')
  .option('--db <path>', 'store file (default: $POLLEN_DB or snapshots/pollen.db)')
  .action(async (raw: { db?: string }) => {
    const args = parseIngestArgs({ provider: 'sample', db: raw.db }, today(), defaultDb());
    const summary = await runIngest(args, process.stderr, process.stdout, { onlyIfEmpty: true });
    if (summary.failures.length > 0) process.exitCode = 1;
    process.stdout.write(`store ready: ${args.db} (sample data through ${dayString(args.span.to)})\n`);
  });

try {
  await program.parseAsync();
} catch (error) {
  if (error instanceof CommanderError) process.exit(error.exitCode === 0 ? 0 : 2);
  if (error instanceof UsageError) {
    process.stderr.write(`error: ${error.message}\n`);
    process.exit(2);
  }
  throw error;
}
