/**
 * One MCP server (the SDK's low-level Server) over the API: the generated tools,
 * the graph-file and decisions resources with their templates, and the
 * change-graph prompt. Every handler works through the ApiCaller it is given,
 * which carries the caller's key; the server itself holds no state, so the HTTP
 * transport builds one per request and stdio one per process.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import type { ApiCaller } from './apiCaller';
import { CHANGE_GRAPH_PROMPT, changeGraphMessages } from './changeGraphPrompt';
import {
  listResources,
  readResource,
  RESOURCE_TEMPLATES,
  ResourceReadError,
} from './graphResources';
import { callTool, HTTP_STATUS_META } from './toolCalls';
import type { ToolDefinition } from './toolDefinitions';

export const SERVER_NAME = 'graph-design-service';

const INSTRUCTIONS =
  'Tools of the graph design service API, one per operation, generated from its OpenAPI ' +
  'document. A failed tool call returns the API error body unchanged as its content (read ' +
  "detail.recovery_hint on a delta error). Use the prompt 'change_graph_safely' before changing a graph.";

// One schema validator for every server of the process: the HTTP transport builds a
// server per request, and a fresh validator each time would cost far more than the call.
const VALIDATOR = new AjvJsonSchemaValidator();

export interface McpServerOptions {
  tools: ToolDefinition[];
  api: ApiCaller;
  version: string;
}

/** What tools/list answers (the route of each tool stays on the server). */
export function listedTools(tools: ToolDefinition[]) {
  return tools.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
    annotations: tool.annotations,
  }));
}

async function withApiErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ResourceReadError) {
      throw new McpError(ErrorCode.InvalidParams, error.message, {
        [HTTP_STATUS_META]: error.answer.status,
        body: error.answer.json ?? error.answer.text,
      });
    }
    throw error;
  }
}

export function createMcpServer(options: McpServerOptions): Server {
  const byName = new Map(options.tools.map((tool) => [tool.name, tool]));
  const listed = listedTools(options.tools);
  const server = new Server(
    { name: SERVER_NAME, version: options.version },
    {
      capabilities: { tools: {}, resources: {}, prompts: {} },
      instructions: INSTRUCTIONS,
      jsonSchemaValidator: VALIDATOR,
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listed }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = byName.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `unknown tool ${request.params.name}`);
    return callTool(tool, request.params.arguments ?? {}, options.api, extra.signal);
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () =>
    withApiErrors(async () => ({ resources: await listResources(options.api) })),
  );
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: RESOURCE_TEMPLATES,
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) =>
    withApiErrors(async () => {
      const content = await readResource(options.api, request.params.uri);
      if (!content)
        throw new McpError(ErrorCode.InvalidParams, `unknown resource ${request.params.uri}`);
      return { contents: [content] };
    }),
  );
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: [CHANGE_GRAPH_PROMPT],
  }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    if (request.params.name !== CHANGE_GRAPH_PROMPT.name)
      throw new McpError(ErrorCode.InvalidParams, `unknown prompt ${request.params.name}`);
    return changeGraphMessages(request.params.arguments ?? {});
  });
  return server;
}
