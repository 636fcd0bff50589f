/**
 * Which operations of the OpenAPI document are MCP tools, and what their HTTP
 * method alone cannot say about them. Everything else about a tool (name,
 * description, input and output schema) is read from the document at start-up
 * (toolDefinitions.ts). Every operation of the document must be named here,
 * either as a tool or as deliberately left out, so a new operation cannot
 * silently be missing from (or leak into) the agent's tool list: the gateway
 * logs the disagreement at start-up and the catalog tests fail on it.
 */

/** Hints that differ from what the HTTP method implies (MCP ToolAnnotations). */
export interface ToolSemantics {
  readOnly?: boolean;
  destructive?: boolean;
  idempotent?: boolean;
}

export const TOOL_OPERATIONS: Readonly<Record<string, ToolSemantics>> = {
  listProjects: {},
  createProject: {},
  importProject: {},
  forkBranch: {},
  listBranches: {},
  discardBranch: {},
  getMainGraph: {},
  getBranchGraph: {},
  getSubtree: {},
  getNeighborhood: {},
  getBoundary: {},
  getTopLevel: {},
  getMainTopLevel: {},
  searchNodes: {},
  searchMainNodes: {},
  // a POST that only checks a batch: it changes nothing
  validateDeltas: { readOnly: true, destructive: false, idempotent: true },
  // deltas may delete nodes and wires; the derived Idempotency-Key makes a repeat
  // of the same call answer the first result instead of applying again
  applyDeltas: { destructive: true, idempotent: true },
  // applies the inverse of an earlier batch as a new one (deletes what it added)
  revertBranch: { destructive: true, idempotent: true },
  getMergePreview: {},
  // rewrites main with the branch's changes and closes the branch
  mergeBranch: { destructive: true },
  // moves the branch onto main's version; its resolutions may drop the branch's changes
  // (main's side) or delete entities (a delete conflict dropped); the derived
  // Idempotency-Key answers a repeat with the first result
  rebaseBranch: { destructive: true, idempotent: true },
  getBranchDiff: {},
  getMainDiff: {},
  listBranchChanges: {},
  getNodeHistory: {},
  getMainNodeHistory: {},
  listDecisions: {},
  getDecision: {},
  exportBranchFile: {},
  // review: open a change request, read it (reviews and comments), reply or review
  openChangeRequest: {},
  listChangeRequests: {},
  getChangeRequest: {},
  reviewChangeRequest: {},
  getProtectionRules: {},
};

/** Operations deliberately not offered to agents, with the reason. */
export const NOT_TOOLS: Readonly<Record<string, string>> = {
  updateProject: 'renaming and archiving a project is a decision for its owner, not an agent',
  deleteProject: 'deleting a project destroys every branch and cannot be undone',
  renameBranch: 'branch names are for people; agents refer to branches by id',
  setProtectionRules: "main's protection rules are the project owner's decision, not an agent's",
  listProjectEvents: 'the feed is offered as an MCP resource (gds://projects/{project_id}/events)',
  streamProjectEvents: 'a stream of Server-Sent Events; agents read the feed resource',
  createWebhook: 'webhooks carry a signing secret and call out of the service: for the owner',
  listWebhooks: 'webhooks are for the project owner to manage, not an agent',
  deleteWebhook: 'webhooks are for the project owner to manage, not an agent',
  listWebhookDeliveries: 'webhooks are for the project owner to manage, not an agent',
  getHealth: 'process liveness, for orchestrators',
  getReady: 'process readiness, for orchestrators',
  getMetrics: 'Prometheus text, for monitoring',
};

/** MCP tool name of an operation: its operationId in snake_case (applyDeltas -> apply_deltas). */
export function toolNameOf(operationId: string): string {
  return operationId.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** MCP argument name of a header parameter (Idempotency-Key -> idempotency_key). */
export function argumentNameOfHeader(header: string): string {
  return header.toLowerCase().replace(/-/g, '_');
}
