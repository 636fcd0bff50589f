/**
 * The maximum length of every string field and the maximum size of every list of a
 * node's write shape (NodeData, Port, Verification). They keep one node's stored
 * size bounded, keep names within what the (branch_id, scope, name) index can hold,
 * and keep what findings and error messages quote short. The OpenAPI document states
 * the same numbers as maxLength / maxItems (fieldLimits.spec.ts compares them).
 */

/** Characters (Unicode code points, as JSON Schema's maxLength counts). */
export const TEXT_LIMITS = {
  /** Node name, port name, each alias. */
  name: 200,
  /** Port type: a nominal type name. */
  type: 200,
  /** Node and port description. */
  description: 10_000,
  /** Each free-text constraint. */
  constraint: 2_000,
  /** Verification text. */
  verificationText: 2_000,
  /** Verification type. */
  verificationType: 100,
  /** user_kind, language, external_kind, protocol: short labels. */
  label: 100,
  path_prefix: 500,
  documentation_url: 2_000,
  contract_name: 500,
} as const;

/** Items per list of one node. */
export const LIST_LIMITS = {
  aliases: 50,
  /** Ports per channel (inputs, outputs, config each). */
  ports: 256,
  constraints: 100,
  verifications: 100,
  source_decisions: 256,
} as const;
