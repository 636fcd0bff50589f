CALL () {
  MATCH (n:GNode)
    USING INDEX SEEK n:GNode(id)
    WHERE n.id IN $ids AND n.branch_id IN [$view.line, $view.main] AND (n.gone IS NULL AND ((n.branch_id = $view.line AND n.vfrom <= $view.ver AND $view.ver < n.vto) OR ($view.line <> $view.main AND n.branch_id = $view.main AND n.vfrom <= $view.base AND $view.base < n.vto AND NOT EXISTS {
      MATCH (shadow_n:GNode {branch_id: CASE WHEN n.branch_id <> $view.line THEN $view.line END, id: n.id})
        USING INDEX SEEK shadow_n:GNode(branch_id, id)
        WHERE shadow_n.vfrom <= $view.ver
    })))
  RETURN n.id AS id, null AS portOwner
  UNION
  MATCH (p:Port)
    USING INDEX SEEK p:Port(id)
    WHERE p.id IN $ids AND p.branch_id IN [$view.line, $view.main] AND (p.gone IS NULL AND ((p.branch_id = $view.line AND p.vfrom <= $view.ver AND $view.ver < p.vto) OR ($view.line <> $view.main AND p.branch_id = $view.main AND p.vfrom <= $view.base AND $view.base < p.vto AND NOT EXISTS {
      MATCH (shadow_p:Port {branch_id: CASE WHEN p.branch_id <> $view.line THEN $view.line END, id: p.id})
        USING INDEX SEEK shadow_p:Port(branch_id, id)
        WHERE shadow_p.vfrom <= $view.ver
    })))
  RETURN p.id AS id, p.node_id AS portOwner
  UNION
  MATCH (e:Edge)
    USING INDEX SEEK e:Edge(id)
    WHERE e.id IN $ids AND e.branch_id IN [$view.line, $view.main] AND (e.gone IS NULL AND ((e.branch_id = $view.line AND e.vfrom <= $view.ver AND $view.ver < e.vto) OR ($view.line <> $view.main AND e.branch_id = $view.main AND e.vfrom <= $view.base AND $view.base < e.vto AND NOT EXISTS {
      MATCH (shadow_e:Edge {branch_id: CASE WHEN e.branch_id <> $view.line THEN $view.line END, id: e.id})
        USING INDEX SEEK shadow_e:Edge(branch_id, id)
        WHERE shadow_e.vfrom <= $view.ver
    })))
  RETURN e.id AS id, null AS portOwner
}
RETURN id, portOwner
