/**
 * Model Context Protocol server over the graph design service API: tools
 * generated from the OpenAPI document, graph-file and decisions resources, and
 * a prompt for changing a graph safely. Two transports: Streamable HTTP at /mcp
 * on the gateway (mcpRouter) and stdio (runStdioServer, `graphctl mcp`).
 */
export { ApiCaller } from './apiCaller';
export { createMcpServer, listedTools, SERVER_NAME } from './mcpServer';
export { gatewayMcpRoutes, loopbackUrl, MCP_PATH, mcpRouter } from './mcpRouter';
export type { McpRouterOptions } from './mcpRouter';
export { runStdioServer, ServiceDocumentError } from './stdioServer';
export type { StdioOptions } from './stdioServer';
export { derivedIdempotencyKey, HTTP_STATUS_META, REPLAYED_META } from './toolCalls';
export { NOT_TOOLS, TOOL_OPERATIONS, toolNameOf } from './toolCatalog';
export { catalogProblems, methodSemantics, toolDefinitions } from './toolDefinitions';
export type { ToolDefinition } from './toolDefinitions';
export type { OpenApiDocument } from './openApiSchemas';
