/**
 * The mcp service: a Model Context Protocol server over the graph design service API,
 * with tools generated from the OpenAPI document, graph-file and decisions resources,
 * and a prompt for changing a graph safely. Two transports:
 *
 * - Streamable HTTP at MCP_PATH on the gateway: gatewayMcpRoutes / mcpRouter, whose
 *   API calls the gateway answers in process;
 * - stdio (`graphctl mcp`): runStdioServer, which fails with ServiceDocumentError
 *   when the service's OpenAPI document cannot be read;
 * - createMcpServer builds the server itself for either transport.
 */
export { ApiCaller } from './apiCaller';
export { createMcpServer } from './mcpServer';
export { gatewayMcpRoutes, MCP_PATH, mcpRouter } from './mcpRouter';
export type { McpRouterOptions } from './mcpRouter';
export { runStdioServer, ServiceDocumentError } from './stdioServer';
export type { StdioOptions } from './stdioServer';
export type { OpenApiDocument } from './openApiSchemas';
