/** MCP over stdio for desktop clients: one server for the life of the process. */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { ApiContext } from '../api/contract/context.js';
import { createMcpServer } from './tools.js';

/** Serves MCP on stdin/stdout until the client closes them. Logs go to stderr only. */
export async function serveStdio(ctx: ApiContext): Promise<void> {
  const server = createMcpServer(ctx);
  await server.connect(new StdioServerTransport());
}
