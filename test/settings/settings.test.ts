import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, SETTINGS, type SettingName, settingsOf } from '../../src/settings.js';
import { ROOT } from '../helpers/cli.js';

const names = Object.keys(SETTINGS) as SettingName[];
const deployerNames = names.filter((n) => !SETTINGS[n].platform);

/** `# NAME=default  # meaning` lines of .env.example: each variable and the default it shows. */
function envExample(): Map<string, string> {
  const lines = readFileSync(join(ROOT, '.env.example'), 'utf8').split('\n');
  return new Map(
    lines.flatMap((line) => {
      const m = /^# ([A-Z][A-Z0-9_]*)=(\S*)/.exec(line);
      return m ? [[m[1]!, m[2]!] as const] : [];
    }),
  );
}

/** `| \`NAME\` | default | meaning |` rows of the table in docs/deploying.md. */
function docsTable(): Map<string, string> {
  const lines = readFileSync(join(ROOT, 'docs', 'deploying.md'), 'utf8').split('\n');
  return new Map(
    lines.flatMap((line) => {
      const m = /^\| `([A-Z][A-Z0-9_]*)` \| ([^|]+) \| [^|]+\|$/.exec(line);
      return m
        ? [
            [
              m[1]!,
              m[2]!
                .trim()
                .replace(/^`(.*)`$/, '$1')
                .replace(/^-$/, ''),
            ] as const,
          ]
        : [];
    }),
  );
}

describe('the settings', () => {
  it('are each a row of the table in docs/deploying.md, with its default', () => {
    const table = docsTable();
    expect([...table.keys()].sort()).toEqual([...names].sort());
    for (const name of names) expect(table.get(name), name).toBe(SETTINGS[name].fallback);
  });

  it('are listed in .env.example, every one a deployer sets, each with its default', () => {
    const example = envExample();
    expect([...example.keys()].sort()).toEqual([...deployerNames].sort());
    for (const name of deployerNames) expect(example.get(name), name).toBe(SETTINGS[name].fallback);
  });

  it('take their defaults when unset or empty', () => {
    for (const env of [{}, Object.fromEntries(names.map((n) => [n, '']))]) {
      const s = settingsOf(env);
      for (const name of names) expect(String(s[name] ?? ''), name).toBe(SETTINGS[name].fallback);
    }
  });

  it.each([
    ['SERVE_DAYS', '0', 'SERVE_DAYS must be a whole number of days of at least 1 (got "0")'],
    ['DEPLOY_MAX_FILES', 'many', 'DEPLOY_MAX_FILES must be a whole number of files of at least 1 (got "many")'],
    ['AMBEE_HISTORY_HOURS', '0', 'AMBEE_HISTORY_HOURS must be at least 1 (got 0)'],
    ['HTTP_RETRIES', '-1', 'HTTP_RETRIES must be a whole number (got "-1")'],
    ['HEALTH_MAX_AGE_HOURS', '1.5', 'HEALTH_MAX_AGE_HOURS must be a whole number (got "1.5")'],
  ] as const)('refuse %s=%s, naming the variable, only when it is read', (name, value, message) => {
    const s = settingsOf({ [name]: value });
    expect(s.POLLEN_DB).toBe('snapshots/pollen.db');
    expect(() => s[name]).toThrow(ConfigError);
    expect(() => s[name]).toThrow(message);
  });

  it('are built once for an environment, and again when a variable changes', () => {
    const env: NodeJS.ProcessEnv = { POLLEN_DB: 'a.db' };
    const first = settingsOf(env);
    expect(settingsOf(env)).toBe(first);
    env.POLLEN_DB = 'b.db';
    expect(settingsOf(env)).not.toBe(first);
    expect(settingsOf(env).POLLEN_DB).toBe('b.db');
  });
});
