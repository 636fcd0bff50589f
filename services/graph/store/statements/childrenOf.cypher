MATCH (c:GNode {parent_id: $id})
  USING INDEX SEEK c:GNode(branch_id, parent_id)
  WHERE c.branch_id IN [$view.line, $view.main] AND (c.gone IS NULL AND ((c.branch_id = $view.line AND c.vfrom <= $view.ver AND $view.ver < c.vto) OR ($view.line <> $view.main AND c.branch_id = $view.main AND c.vfrom <= $view.base AND $view.base < c.vto AND NOT EXISTS {
    MATCH (shadow_c:GNode {branch_id: CASE WHEN c.branch_id <> $view.line THEN $view.line END, id: c.id})
      USING INDEX SEEK shadow_c:GNode(branch_id, id)
      WHERE shadow_c.vfrom <= $view.ver
  })))
RETURN c.id AS id, c.name AS name
