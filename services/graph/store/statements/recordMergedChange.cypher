MATCH (b:Branch {id: $branchId})
CREATE (c:Change {branch_id: b.id, version: b.version})
SET c += $change
WITH c
CALL (c) {
  MATCH (m:Change {branch_id: c.merged_branch_id})
    WHERE m.version IS NOT NULL
  RETURN count(m) AS batches, coalesce(min(m.version), 0) AS fromVersion, coalesce(max(m.version), 0) AS toVersion
}
SET c.merged_batches = batches, c.merged_from_version = fromVersion, c.merged_to_version = toVersion, c.deltas = null, c.deltas_bytes = 0, c.touched = true
WITH c
CALL (c) {
  MATCH (t:Touch {branch_id: c.merged_branch_id})
    WHERE t.key IS NOT NULL AND t.version IS NOT NULL
  WITH t.key AS key, t.entity_id AS id, t.entity AS entity, collect(t.action) AS actions,
       collect(t.fields) AS fieldLists, collect(t.ports) AS portLists, collect(t.wires) AS wireLists
  WITH {key: key, entity: entity, id: id,
        action: CASE WHEN 'removed' IN actions THEN 'removed' WHEN 'added' IN actions THEN 'added' ELSE 'changed' END,
        fields: COLLECT { UNWIND fieldLists AS l UNWIND l AS x RETURN DISTINCT x },
        ports: COLLECT { UNWIND portLists AS l UNWIND l AS x RETURN DISTINCT x },
        wires: COLLECT { UNWIND wireLists AS l UNWIND l AS x RETURN DISTINCT x }} AS row
  CREATE (:Touch {branch_id: c.branch_id, version: c.version, key: row.key, entity: row.entity, entity_id: row.id, action: row.action, fields: row.fields, ports: row.ports, wires: row.wires})
  RETURN count(*) AS copied
}
RETURN c.version AS version, copied
