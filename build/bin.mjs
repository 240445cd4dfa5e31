#!/usr/bin/env node
// `npx pollen-api <command>` (for example `npx pollen-api mcp --stdio`): the TypeScript CLI through tsx.
import { register } from 'tsx/esm/api';

register();
await import('./cli.ts');
