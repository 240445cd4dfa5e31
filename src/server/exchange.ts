/** One request to the local server as each step of its chain sees it, and the site it is asked of (server.ts). */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CompressedFiles } from './compress.js';
import type { LoadedFunction } from './functions.js';
import type { NetlifyConfig } from './netlify-config.js';
import type { RulesFor } from './rules.js';

export interface Site {
  publishDir: string;
  config: NetlifyConfig;
  functions: LoadedFunction[];
  /** The matcher for a request with these query parameter names. */
  rules: RulesFor;
  /** Where this server listens, `http://127.0.0.1:8888`: the site's own address. */
  origin: string;
  /** Text files compressed once per version, as the CDN keeps them. */
  compressed: CompressedFiles;
}

/** One request as the steps below see it. */
export interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  method: string;
  site: Site;
}
