MATCH (b:Branch {id: $branchId})
  WHERE b.version = $expected
SET b.prior_bases = coalesce(b.prior_bases, []) + [b.base_main_version],
    b.prior_base_until = coalesce(b.prior_base_until, []) + [b.version + 1],
    b.version = b.version + 1, b.base_main_version = toInteger($base),
    b.rebased_version = b.version + 1, b.last_active_at = $now,
    b.node_count = toInteger($nodes), b.edge_count = toInteger($edges),
    b.stored_bytes = toInteger($bytes)
CREATE (c:Change {branch_id: b.id, version: b.version})
SET c += $change, c.deltas_bytes = toInteger(c.deltas_bytes),
    c.positions_applied = toInteger(c.positions_applied),
    c.reverted_version = toInteger(c.reverted_version),
    c.rebase_base = toInteger(c.rebase_base),
    c.rebase_previous_base = toInteger(c.rebase_previous_base)
FOREACH (t IN $touches |
  CREATE (:Touch {branch_id: b.id, version: b.version, key: t.key, entity: t.entity, entity_id: t.id,
                  action: t.action, fields: t.fields, ports: t.ports, wires: t.wires}))
RETURN b {.*} AS branch
