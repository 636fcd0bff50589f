CALL () {
  UNWIND $nodeIds AS nid
  MATCH (n:GNode {id: nid})
    USING INDEX SEEK n:GNode(branch_id, id)
    WHERE n.branch_id IN [$view.line, $view.main] AND (n.gone IS NULL AND ((n.branch_id = $view.line AND n.vfrom <= $view.ver AND $view.ver < n.vto) OR ($view.line <> $view.main AND n.branch_id = $view.main AND n.vfrom <= $view.base AND $view.base < n.vto AND NOT EXISTS {
      MATCH (shadow_n:GNode {branch_id: CASE WHEN n.branch_id <> $view.line THEN $view.line END, id: n.id})
        USING INDEX SEEK shadow_n:GNode(branch_id, id)
        WHERE shadow_n.vfrom <= $view.ver
    })))
  RETURN collect(DISTINCT n.id) AS nodeIds
}
CALL () {
  UNWIND $portIds AS pid
  MATCH (p:Port {id: pid})
    USING INDEX SEEK p:Port(branch_id, id)
    WHERE p.branch_id IN [$view.line, $view.main] AND (p.gone IS NULL AND ((p.branch_id = $view.line AND p.vfrom <= $view.ver AND $view.ver < p.vto) OR ($view.line <> $view.main AND p.branch_id = $view.main AND p.vfrom <= $view.base AND $view.base < p.vto AND NOT EXISTS {
      MATCH (shadow_p:Port {branch_id: CASE WHEN p.branch_id <> $view.line THEN $view.line END, id: p.id})
        USING INDEX SEEK shadow_p:Port(branch_id, id)
        WHERE shadow_p.vfrom <= $view.ver
    })))
  RETURN collect(DISTINCT p.id) AS portIds
}
CALL () {
  UNWIND $portIds AS pid
  CALL (pid) {
    MATCH (e:Edge {source_handle: pid})
      USING INDEX SEEK e:Edge(branch_id, source_handle)
      WHERE e.branch_id IN [$view.line, $view.main] AND (e.gone IS NULL AND ((e.branch_id = $view.line AND e.vfrom <= $view.ver AND $view.ver < e.vto) OR ($view.line <> $view.main AND e.branch_id = $view.main AND e.vfrom <= $view.base AND $view.base < e.vto AND NOT EXISTS {
        MATCH (shadow_e:Edge {branch_id: CASE WHEN e.branch_id <> $view.line THEN $view.line END, id: e.id})
          USING INDEX SEEK shadow_e:Edge(branch_id, id)
          WHERE shadow_e.vfrom <= $view.ver
      })))
    RETURN e
    UNION
    MATCH (e:Edge {target_handle: pid})
      USING INDEX SEEK e:Edge(branch_id, target_handle)
      WHERE e.branch_id IN [$view.line, $view.main] AND (e.gone IS NULL AND ((e.branch_id = $view.line AND e.vfrom <= $view.ver AND $view.ver < e.vto) OR ($view.line <> $view.main AND e.branch_id = $view.main AND e.vfrom <= $view.base AND $view.base < e.vto AND NOT EXISTS {
        MATCH (shadow_e:Edge {branch_id: CASE WHEN e.branch_id <> $view.line THEN $view.line END, id: e.id})
          USING INDEX SEEK shadow_e:Edge(branch_id, id)
          WHERE shadow_e.vfrom <= $view.ver
      })))
    RETURN e
  }
  RETURN collect(DISTINCT e.id) AS edgeIds
}
RETURN nodeIds, portIds, edgeIds
