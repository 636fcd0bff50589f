CYPHER replan=skip
CALL () {
  CALL () {
    UNWIND $findings.opened AS open
    MATCH (cur:GFinding {branch_id: $view.line, id: open.id})
      USING INDEX SEEK cur:GFinding(branch_id, id)
      WHERE cur.vto = 9007199254740991
    SET cur.vto = toInteger($view.ver)
  }
  UNWIND $findings.opened AS row
  WITH row.id AS id, row.props AS props
  CREATE (n:GFinding)
  SET n = props {.*, branch_id: $view.line, id: id, vfrom: toInteger($view.ver), vto: 9007199254740991}
  RETURN count(*) AS opened
}
CALL () {
  UNWIND $findings.closed AS id
  OPTIONAL MATCH (cur:GFinding {branch_id: $view.line, id: id})
    USING INDEX SEEK cur:GFinding(branch_id, id)
    WHERE cur.vto = 9007199254740991
  WITH id, cur, $view.line = $view.main AS onMain, cur IS NOT NULL AND cur.vfrom = $view.ver AS sameVersion, cur IS NOT NULL AND cur.vfrom < $view.ver AS older
  CALL (cur, older) {
    WITH cur
      WHERE older
    SET cur.vto = toInteger($view.ver)
  }
  CALL (cur, onMain, sameVersion, id) {
    WITH cur, id
      WHERE NOT onMain AND sameVersion
    SET cur = {branch_id: $view.line, id: id, vfrom: toInteger($view.ver), vto: 9007199254740991, gone: true}
  }
  CALL (cur, onMain, id) {
    WITH id
      WHERE NOT onMain AND cur IS NULL
    CREATE (:GFinding {branch_id: $view.line, id: id, vfrom: toInteger($view.ver), vto: 9007199254740991, gone: true})
  }
  // last, and decided before any subquery runs: nothing reads a record deleted here
  CALL (cur, onMain, sameVersion) {
    WITH cur
      WHERE onMain AND sameVersion
    DELETE cur
  }
  RETURN count(id) AS removed
}
MATCH (b:Branch {id: $branchId})
SET b.version = b.version + 1, b.last_active_at = $now, b.node_count = $nodes, b.edge_count = $edges, b.stored_bytes = $bytes
CREATE (c:Change {branch_id: b.id, version: b.version})
SET c += $change, c.deltas_bytes = toInteger(c.deltas_bytes), c.positions_applied = toInteger(c.positions_applied), c.reverted_version = toInteger(c.reverted_version),
    c.rebase_base = toInteger(c.rebase_base),
    c.rebase_previous_base = toInteger(c.rebase_previous_base)
FOREACH (t IN $touches | CREATE (:Touch {branch_id: b.id, version: b.version, key: t.key, entity: t.entity, entity_id: t.id, action: t.action, fields: t.fields, ports: t.ports, wires: t.wires}))
RETURN b.version AS version
