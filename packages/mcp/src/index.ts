// The MCP server as a library: make one (AggregationMcp), serve it over Streamable HTTP (listenHttp) or connect its
// Servers to any transport of the SDK; and the tools of a description, as the server makes them (toolsOf).
export { DEFAULT_HTTP_HOST, DEFAULT_HTTP_PORT } from './cli.ts';
export { type HttpListener, listenHttp, MCP_PATH } from './http.ts';
export { SUMMARIZE_SPENDING, summarizeSpendingPrompt } from './prompts.ts';
export { DOCS_URI } from './resources.ts';
export { inlineSchema } from './schemas.ts';
export { AggregationMcp, type AggregationMcpOptions, DEFAULT_BASE_URL, packageVersion, SERVER_NAME } from './server.ts';
export {
  type AnswerShape,
  type ArgumentTarget,
  annotationsOf,
  DEFAULT_TOOL_PAGE,
  LIST_KEY,
  NEXT_PAGE_KEY,
  snakeCase,
  type ToolAnnotations,
  type ToolDefinition,
  toolsOf,
  VERSION_HEADER,
} from './tools.ts';
