MATCH (b:Branch {id: $branchId})
  WHERE b.deleted_at IS NULL
WITH b
OPTIONAL MATCH (p:Project {id: b.project_id})
  WHERE p.deleted_at IS NULL
OPTIONAL MATCH (:User {id: $userId})-[m:MEMBER_OF]->(p)
WITH b, p, m, {line: b.id, ver: coalesce(toInteger($version), b.version), main: b.main_id, base: CASE WHEN b.id = b.main_id THEN coalesce(toInteger($version), b.version) ELSE coalesce(head([i IN range(0, size(coalesce(b.prior_base_until, [])) - 1) WHERE coalesce(toInteger($version), b.version) < b.prior_base_until[i] | b.prior_bases[i]]), b.base_main_version) END, head: CASE WHEN $version IS NULL OR toInteger($version) = b.version THEN null ELSE {line: b.id, ver: b.version, main: b.main_id, base: CASE WHEN b.id = b.main_id THEN b.version ELSE coalesce(head([i IN range(0, size(coalesce(b.prior_base_until, [])) - 1) WHERE b.version < b.prior_base_until[i] | b.prior_bases[i]]), b.base_main_version) END} END} AS view OPTIONAL CALL (b, view) {
  WITH b, view
    WHERE b.status <> 'discarded'
  CALL (view) {
    MATCH (n:GNode)
      USING INDEX n:GNode(branch_id, vto)
      WHERE n.branch_id = view.line AND n.vto > view.ver AND n.vfrom <= view.ver AND n.gone IS NULL AND toLower(n.name) CONTAINS $q
    RETURN n
    UNION ALL
    MATCH (n:GNode)
      USING INDEX n:GNode(branch_id, vto)
      WHERE view.line <> view.main AND n.branch_id = view.main AND n.vto > view.base AND n.vfrom <= view.base AND n.gone IS NULL AND toLower(n.name) CONTAINS $q AND NOT EXISTS {
        MATCH (shadow_n:GNode {branch_id: view.line, id: n.id})
          USING INDEX SEEK shadow_n:GNode(branch_id, id)
          WHERE shadow_n.vfrom <= view.ver
      }
    RETURN n
  }
  WITH n, view, CASE WHEN toLower(n.name) STARTS
  WITH $q THEN 0 ELSE 1 END AS rank
    ORDER BY rank, n.name, n.id
    LIMIT toInteger($limit) + 1
  CALL (n, view) {
    OPTIONAL MATCH (a1:GNode {id: n.parent_id})
      USING INDEX SEEK a1:GNode(branch_id, id)
      WHERE a1.branch_id IN [view.line, view.main] AND (a1.gone IS NULL AND ((a1.branch_id = view.line AND a1.vfrom <= view.ver AND view.ver < a1.vto) OR (view.line <> view.main AND a1.branch_id = view.main AND a1.vfrom <= view.base AND view.base < a1.vto AND NOT EXISTS {
        MATCH (shadow_a1:GNode {branch_id: view.line, id: a1.id})
          USING INDEX SEEK shadow_a1:GNode(branch_id, id)
          WHERE shadow_a1.vfrom <= view.ver
      })))
    OPTIONAL MATCH (a2:GNode {id: a1.parent_id})
      USING INDEX SEEK a2:GNode(branch_id, id)
      WHERE a2.branch_id IN [view.line, view.main] AND (a2.gone IS NULL AND ((a2.branch_id = view.line AND a2.vfrom <= view.ver AND view.ver < a2.vto) OR (view.line <> view.main AND a2.branch_id = view.main AND a2.vfrom <= view.base AND view.base < a2.vto AND NOT EXISTS {
        MATCH (shadow_a2:GNode {branch_id: view.line, id: a2.id})
          USING INDEX SEEK shadow_a2:GNode(branch_id, id)
          WHERE shadow_a2.vfrom <= view.ver
      })))
    OPTIONAL MATCH (a3:GNode {id: a2.parent_id})
      USING INDEX SEEK a3:GNode(branch_id, id)
      WHERE a3.branch_id IN [view.line, view.main] AND (a3.gone IS NULL AND ((a3.branch_id = view.line AND a3.vfrom <= view.ver AND view.ver < a3.vto) OR (view.line <> view.main AND a3.branch_id = view.main AND a3.vfrom <= view.base AND view.base < a3.vto AND NOT EXISTS {
        MATCH (shadow_a3:GNode {branch_id: view.line, id: a3.id})
          USING INDEX SEEK shadow_a3:GNode(branch_id, id)
          WHERE shadow_a3.vfrom <= view.ver
      })))
    OPTIONAL MATCH (a4:GNode {id: a3.parent_id})
      USING INDEX SEEK a4:GNode(branch_id, id)
      WHERE a4.branch_id IN [view.line, view.main] AND (a4.gone IS NULL AND ((a4.branch_id = view.line AND a4.vfrom <= view.ver AND view.ver < a4.vto) OR (view.line <> view.main AND a4.branch_id = view.main AND a4.vfrom <= view.base AND view.base < a4.vto AND NOT EXISTS {
        MATCH (shadow_a4:GNode {branch_id: view.line, id: a4.id})
          USING INDEX SEEK shadow_a4:GNode(branch_id, id)
          WHERE shadow_a4.vfrom <= view.ver
      })))
    OPTIONAL MATCH (a5:GNode {id: a4.parent_id})
      USING INDEX SEEK a5:GNode(branch_id, id)
      WHERE a5.branch_id IN [view.line, view.main] AND (a5.gone IS NULL AND ((a5.branch_id = view.line AND a5.vfrom <= view.ver AND view.ver < a5.vto) OR (view.line <> view.main AND a5.branch_id = view.main AND a5.vfrom <= view.base AND view.base < a5.vto AND NOT EXISTS {
        MATCH (shadow_a5:GNode {branch_id: view.line, id: a5.id})
          USING INDEX SEEK shadow_a5:GNode(branch_id, id)
          WHERE shadow_a5.vfrom <= view.ver
      })))
    OPTIONAL MATCH (a6:GNode {id: a5.parent_id})
      USING INDEX SEEK a6:GNode(branch_id, id)
      WHERE a6.branch_id IN [view.line, view.main] AND (a6.gone IS NULL AND ((a6.branch_id = view.line AND a6.vfrom <= view.ver AND view.ver < a6.vto) OR (view.line <> view.main AND a6.branch_id = view.main AND a6.vfrom <= view.base AND view.base < a6.vto AND NOT EXISTS {
        MATCH (shadow_a6:GNode {branch_id: view.line, id: a6.id})
          USING INDEX SEEK shadow_a6:GNode(branch_id, id)
          WHERE shadow_a6.vfrom <= view.ver
      })))
    OPTIONAL MATCH (a7:GNode {id: a6.parent_id})
      USING INDEX SEEK a7:GNode(branch_id, id)
      WHERE a7.branch_id IN [view.line, view.main] AND (a7.gone IS NULL AND ((a7.branch_id = view.line AND a7.vfrom <= view.ver AND view.ver < a7.vto) OR (view.line <> view.main AND a7.branch_id = view.main AND a7.vfrom <= view.base AND view.base < a7.vto AND NOT EXISTS {
        MATCH (shadow_a7:GNode {branch_id: view.line, id: a7.id})
          USING INDEX SEEK shadow_a7:GNode(branch_id, id)
          WHERE shadow_a7.vfrom <= view.ver
      })))
    OPTIONAL MATCH (a8:GNode {id: a7.parent_id})
      USING INDEX SEEK a8:GNode(branch_id, id)
      WHERE a8.branch_id IN [view.line, view.main] AND (a8.gone IS NULL AND ((a8.branch_id = view.line AND a8.vfrom <= view.ver AND view.ver < a8.vto) OR (view.line <> view.main AND a8.branch_id = view.main AND a8.vfrom <= view.base AND view.base < a8.vto AND NOT EXISTS {
        MATCH (shadow_a8:GNode {branch_id: view.line, id: a8.id})
          USING INDEX SEEK shadow_a8:GNode(branch_id, id)
          WHERE shadow_a8.vfrom <= view.ver
      })))
    RETURN reverse([x IN [a1, a2, a3, a4, a5, a6, a7, a8] WHERE x IS NOT NULL | x.id]) AS path, a8.parent_id AS pathRest
  }
  RETURN collect({id: n.id, name: n.name, kind: n.kind, parent_id: n.parent_id, path: path, rest: pathRest}) AS found
}
RETURN b {.*} AS branch, p {.*} AS project, m.role AS role, found
