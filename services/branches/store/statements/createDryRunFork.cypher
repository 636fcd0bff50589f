MATCH (m:Branch {id: $mainId})
CREATE (b:Branch {id: $id, project_id: m.project_id, owner_id: $ownerId, name: $id, name_lower: $id, status: 'active', is_main: false, version: 0, base_main_version: $baseMainVersion, main_id: m.id, created_at: $now, last_active_at: $now, merged_at: null, node_count: m.node_count, edge_count: m.edge_count, stored_bytes: m.stored_bytes, dry_run: true})
SET b.findings_from = CASE WHEN m.findings_from IS NOT NULL THEN 0 END
RETURN b {.*} AS branch
