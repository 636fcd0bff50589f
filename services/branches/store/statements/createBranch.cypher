CREATE (b:Branch {id: $id, project_id: $projectId, owner_id: $ownerId, name: $name, name_lower: $nameLower, status: 'active', is_main: $isMain, version: 0, base_main_version: $baseMainVersion, main_id: $mainId, created_at: $now, last_active_at: $now, merged_at: null, node_count: $usage.nodes, edge_count: $usage.edges, stored_bytes: $usage.bytes})
// findings are kept as records from the first version of a main, and on a fork of a
// main that keeps them (graph's findingRecords.ts); older stores compute them whole
WITH b
OPTIONAL MATCH (m:Branch {id: $mainId})
  WHERE NOT $isMain
SET b.findings_from = CASE WHEN $isMain OR m.findings_from IS NOT NULL THEN 0 END
RETURN b {.*} AS branch
