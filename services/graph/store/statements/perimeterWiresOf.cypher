WITH $view AS view, $own AS own
UNWIND $ids AS id
MATCH (p:Port {node_id: id})
  USING INDEX SEEK p:Port(branch_id, node_id)
  WHERE p.branch_id IN [view.line, view.main] AND (p.gone IS NULL AND ((p.branch_id = view.line AND p.vfrom <= view.ver AND view.ver < p.vto) OR (view.line <> view.main AND p.branch_id = view.main AND p.vfrom <= view.base AND view.base < p.vto AND NOT EXISTS {
    MATCH (shadow_p:Port {branch_id: CASE WHEN p.branch_id <> view.line THEN view.line END, id: p.id})
      USING INDEX SEEK shadow_p:Port(branch_id, id)
      WHERE shadow_p.vfrom <= view.ver
  })))
CALL (p, view) {
  MATCH (e:Edge {source_handle: CASE WHEN p.channel = 'outputs' THEN p.id END})
    USING INDEX SEEK e:Edge(branch_id, source_handle)
    WHERE e.branch_id IN [view.line, view.main] AND (e.gone IS NULL AND ((e.branch_id = view.line AND e.vfrom <= view.ver AND view.ver < e.vto) OR (view.line <> view.main AND e.branch_id = view.main AND e.vfrom <= view.base AND view.base < e.vto AND NOT EXISTS {
      MATCH (shadow_e:Edge {branch_id: CASE WHEN e.branch_id <> view.line THEN view.line END, id: e.id})
        USING INDEX SEEK shadow_e:Edge(branch_id, id)
        WHERE shadow_e.vfrom <= view.ver
    })))
  RETURN e
  UNION ALL
  MATCH (e:Edge {target_handle: CASE WHEN p.channel = 'inputs' THEN p.id END})
    USING INDEX SEEK e:Edge(branch_id, target_handle)
    WHERE e.branch_id IN [view.line, view.main] AND (e.gone IS NULL AND ((e.branch_id = view.line AND e.vfrom <= view.ver AND view.ver < e.vto) OR (view.line <> view.main AND e.branch_id = view.main AND e.vfrom <= view.base AND view.base < e.vto AND NOT EXISTS {
      MATCH (shadow_e:Edge {branch_id: CASE WHEN e.branch_id <> view.line THEN view.line END, id: e.id})
        USING INDEX SEEK shadow_e:Edge(branch_id, id)
        WHERE shadow_e.vfrom <= view.ver
    })))
  RETURN e
}
WITH own, view, e, count(*) AS inside
  WHERE inside = 1 OR e.source_handle IN own OR e.target_handle IN own
OPTIONAL MATCH (sp:Port {id: e.source_handle})
  USING INDEX SEEK sp:Port(branch_id, id)
  WHERE sp.branch_id IN [view.line, view.main] AND (sp.gone IS NULL AND ((sp.branch_id = view.line AND sp.vfrom <= view.ver AND view.ver < sp.vto) OR (view.line <> view.main AND sp.branch_id = view.main AND sp.vfrom <= view.base AND view.base < sp.vto AND NOT EXISTS {
    MATCH (shadow_sp:Port {branch_id: CASE WHEN sp.branch_id <> view.line THEN view.line END, id: sp.id})
      USING INDEX SEEK shadow_sp:Port(branch_id, id)
      WHERE shadow_sp.vfrom <= view.ver
  })))
OPTIONAL MATCH (tp:Port {id: e.target_handle})
  USING INDEX SEEK tp:Port(branch_id, id)
  WHERE tp.branch_id IN [view.line, view.main] AND (tp.gone IS NULL AND ((tp.branch_id = view.line AND tp.vfrom <= view.ver AND view.ver < tp.vto) OR (view.line <> view.main AND tp.branch_id = view.main AND tp.vfrom <= view.base AND view.base < tp.vto AND NOT EXISTS {
    MATCH (shadow_tp:Port {branch_id: CASE WHEN tp.branch_id <> view.line THEN view.line END, id: tp.id})
      USING INDEX SEEK shadow_tp:Port(branch_id, id)
      WHERE shadow_tp.vfrom <= view.ver
  })))
WITH e, inside, sp, tp
  ORDER BY e.id
RETURN collect({id: e.id, source_handle: e.source_handle, target_handle: e.target_handle, source: sp.node_id, target: tp.node_id, inside: inside}) AS edges
