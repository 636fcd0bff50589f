/** Cypher of main's protection rules: one record per project, absent until first set. */
import { cypher } from '../../../shared/neo4j/namedQuery';

export const ruleSchema = [
  cypher(
    'mainProtectionUnique',
    `CREATE CONSTRAINT main_protection IF NOT EXISTS
     FOR (r:MainProtection) REQUIRE r.project_id IS UNIQUE`,
  ),
];

export const findRules = cypher(
  'findMainProtection',
  `MATCH (r:MainProtection {project_id: $projectId})
   RETURN r {.*} AS rules`,
);

export const saveRules = cypher(
  'saveMainProtection',
  `MERGE (r:MainProtection {project_id: $projectId})
   SET r.required_approvals = toInteger($requiredApprovals),
       r.no_error_findings = $noErrorFindings,
       r.require_up_to_date = $requireUpToDate,
       r.updated_at = $now, r.updated_by = $userId
   RETURN r {.*} AS rules`,
);
