UNWIND $changes AS ch
MATCH (c:Change {branch_id: ch.branchId, version: ch.version})
  WHERE c.touched IS NULL
SET c.touched = true
FOREACH (t IN ch.touches | CREATE (:Touch {branch_id: c.branch_id, version: c.version, key: t.key, entity: t.entity, entity_id: t.id, action: t.action, fields: t.fields, ports: t.ports, wires: t.wires}))
RETURN count(c) AS backfilled
