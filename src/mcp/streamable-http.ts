/**
 * MCP over streamable HTTP, stateless: a fresh server and transport for every POST (SDK 1.x
 * transports cannot be reused), JSON responses, GET and DELETE refused, CORS for browser clients.
 * One POST is one JSON-RPC message, so one request costs at most one tool call.
 */
import { readRequestBody } from '@modelcontextprotocol/sdk/server/requestBody.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ApiContext } from '../api/contract/context.js';
import { createMcpServer } from './tools.js';

/** Largest JSON-RPC body accepted; tool calls are a few hundred bytes. */
export const MAX_MCP_BODY = 64 * 1024;

/** On every answer, as on the API's: CORS for browser clients, and no content sniffing. */
const HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
  'Access-Control-Allow-Headers': 'Content-Type, Accept, Authorization, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID',
  'Access-Control-Expose-Headers': 'Mcp-Session-Id, Mcp-Protocol-Version',
  'Access-Control-Max-Age': '86400',
  'X-Content-Type-Options': 'nosniff',
};

/**
 * The refusal of a JSON-RPC batch. MCP removed batching in revision 2025-06-18 ("Remove support
 * for JSON-RPC batching", its changelog), and the revisions since say a POST body "MUST be a
 * single JSON-RPC request, notification, or response" (2025-11-25, basic/transports) or "a single
 * JSON-RPC request or notification" (2026-07-28, basic/transports/streamable-http), while the
 * TypeScript SDK still runs batches of up to 100 (MAX_BATCH_SIZE, server/requestBody.ts): 100
 * range calls in one POST would cost a hundred calls and hold every answer at once.
 */
export const BATCH_REFUSED =
  'Invalid Request: JSON-RPC batches are not accepted (MCP removed batching in revision 2025-06-18); send one message per POST';

const rpcError = (status: number, code: number, message: string, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { ...HEADERS, 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...headers },
  });

/** Answers one request to /mcp. */
export async function handleMcp(request: Request, ctx: ApiContext): Promise<Response> {
  if (request.method === 'OPTIONS')
    return new Response(null, { status: 204, headers: { ...HEADERS, 'Cache-Control': 'public, max-age=86400' } });
  if (request.method !== 'POST') {
    return rpcError(405, -32000, `Method ${request.method} not allowed: this MCP server is stateless, POST JSON-RPC messages`, {
      Allow: 'POST, OPTIONS',
    });
  }
  // Read here (within MAX_MCP_BODY, as the transport would) to see whether it is a batch before any tool runs.
  const body = await readRequestBody(request, MAX_MCP_BODY).catch(() => undefined);
  if (!body) return rpcError(400, -32600, 'Invalid Request: the body could not be read');
  if (body.tooLarge) return rpcError(413, -32600, `Request body larger than ${MAX_MCP_BODY} bytes`);
  let message: unknown;
  try {
    message = JSON.parse(body.text);
  } catch {
    return rpcError(400, -32700, 'Parse error: Invalid JSON');
  }
  if (Array.isArray(message)) return rpcError(400, -32600, BATCH_REFUSED);
  // JSON that is no JSON-RPC message is an Invalid Request (JSON-RPC 2.0, section 5.1), not the
  // transport's Parse error, which is for text that is not JSON.
  if (!JSONRPCMessageSchema.safeParse(message).success)
    return rpcError(400, -32600, 'Invalid Request: the body is JSON but not a JSON-RPC 2.0 request, notification or response');

  const server = createMcpServer(ctx);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  try {
    await server.connect(transport);
    const response = await transport.handleRequest(request, { parsedBody: message });
    const headers = new Headers(response.headers);
    for (const [k, v] of Object.entries(HEADERS)) headers.set(k, v);
    headers.set('Cache-Control', 'no-store');
    // The JSON response is complete here, so the body can be read before the server closes.
    const answer = response.body ? await response.arrayBuffer() : null;
    return new Response(answer, { status: response.status, headers });
  } finally {
    await server.close();
  }
}
