/**
 * MCP over streamable HTTP, stateless: a fresh server and transport for every POST (SDK 1.x
 * transports cannot be reused), JSON responses, GET and DELETE refused, CORS for browser clients.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { ApiContext } from '../api/context.js';
import { createMcpServer } from './tools.js';

/** Largest JSON-RPC body accepted; tool calls are a few hundred bytes. */
export const MAX_MCP_BODY = 64 * 1024;

const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
  'Access-Control-Allow-Headers': 'Content-Type, Accept, Authorization, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID',
  'Access-Control-Expose-Headers': 'Mcp-Session-Id, Mcp-Protocol-Version',
  'Access-Control-Max-Age': '86400',
};

const rpcError = (status: number, code: number, message: string, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { ...CORS, 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...headers },
  });

/** Answers one request to /mcp. */
export async function handleMcp(request: Request, ctx: ApiContext): Promise<Response> {
  if (request.method === 'OPTIONS')
    return new Response(null, { status: 204, headers: { ...CORS, 'Cache-Control': 'public, max-age=86400' } });
  if (request.method !== 'POST') {
    return rpcError(405, -32000, `Method ${request.method} not allowed: this MCP server is stateless, POST JSON-RPC messages`, {
      Allow: 'POST, OPTIONS',
    });
  }
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > MAX_MCP_BODY) return rpcError(413, -32600, `Request body larger than ${MAX_MCP_BODY} bytes`);

  const server = createMcpServer(ctx);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: MAX_MCP_BODY,
  });
  try {
    await server.connect(transport);
    const response = await transport.handleRequest(request);
    const headers = new Headers(response.headers);
    for (const [k, v] of Object.entries(CORS)) headers.set(k, v);
    headers.set('Cache-Control', 'no-store');
    // The JSON response is complete here, so the body can be read before the server closes.
    const body = response.body ? await response.arrayBuffer() : null;
    return new Response(body, { status: response.status, headers });
  } finally {
    await server.close();
  }
}
