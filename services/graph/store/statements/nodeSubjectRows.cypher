UNWIND $ids AS id
MATCH (n:GNode {id: id})
  USING INDEX SEEK n:GNode(branch_id, id)
  WHERE n.branch_id IN [$view.line, $view.main] AND (n.gone IS NULL AND ((n.branch_id = $view.line AND n.vfrom <= $view.ver AND $view.ver < n.vto) OR ($view.line <> $view.main AND n.branch_id = $view.main AND n.vfrom <= $view.base AND $view.base < n.vto AND NOT EXISTS {
    MATCH (shadow_n:GNode {branch_id: CASE WHEN n.branch_id <> $view.line THEN $view.line END, id: n.id})
      USING INDEX SEEK shadow_n:GNode(branch_id, id)
      WHERE shadow_n.vfrom <= $view.ver
  })))
CALL (n) {
  OPTIONAL MATCH (f:GFinding {id: 'orphan_node:' + n.parent_id})
    USING INDEX SEEK f:GFinding(branch_id, id)
    WHERE f.branch_id IN [$view.line, $view.main] AND (f.gone IS NULL AND ((f.branch_id = $view.line AND f.vfrom <= $view.ver AND $view.ver < f.vto) OR ($view.line <> $view.main AND f.branch_id = $view.main AND f.vfrom <= $view.base AND $view.base < f.vto AND NOT EXISTS {
      MATCH (shadow_f:GFinding {branch_id: CASE WHEN f.branch_id <> $view.line THEN $view.line END, id: f.id})
        USING INDEX SEEK shadow_f:GFinding(branch_id, id)
        WHERE shadow_f.vfrom <= $view.ver
    })))
  RETURN f IS NOT NULL AS parentOrphan
}
RETURN collect({id: n.id, parentId: n.parent_id, traced: size(coalesce(n.source_decisions, [])) > 0, name: left(coalesce(n.name, ''), $quoted), parentOrphan: parentOrphan}) AS nodeRows
