CALL () {
  UNWIND $portIds AS handle
  CALL (handle) {
    MATCH (e:Edge {source_handle: handle})
      USING INDEX SEEK e:Edge(branch_id, source_handle)
      WHERE e.branch_id IN [$view.line, $view.main] AND (e.gone IS NULL AND ((e.branch_id = $view.line AND e.vfrom <= $view.ver AND $view.ver < e.vto) OR ($view.line <> $view.main AND e.branch_id = $view.main AND e.vfrom <= $view.base AND $view.base < e.vto AND NOT EXISTS {
        MATCH (shadow_e:Edge {branch_id: CASE WHEN e.branch_id <> $view.line THEN $view.line END, id: e.id})
          USING INDEX SEEK shadow_e:Edge(branch_id, id)
          WHERE shadow_e.vfrom <= $view.ver
      })))
    RETURN e
  }
  RETURN e
  UNION
  UNWIND $portIds AS handle
  CALL (handle) {
    MATCH (e:Edge {target_handle: handle})
      USING INDEX SEEK e:Edge(branch_id, target_handle)
      WHERE e.branch_id IN [$view.line, $view.main] AND (e.gone IS NULL AND ((e.branch_id = $view.line AND e.vfrom <= $view.ver AND $view.ver < e.vto) OR ($view.line <> $view.main AND e.branch_id = $view.main AND e.vfrom <= $view.base AND $view.base < e.vto AND NOT EXISTS {
        MATCH (shadow_e:Edge {branch_id: CASE WHEN e.branch_id <> $view.line THEN $view.line END, id: e.id})
          USING INDEX SEEK shadow_e:Edge(branch_id, id)
          WHERE shadow_e.vfrom <= $view.ver
      })))
    RETURN e
  }
  RETURN e
}
CALL (e) {
  OPTIONAL MATCH (sp:Port {id: e.source_handle})
    USING INDEX SEEK sp:Port(branch_id, id)
    WHERE sp.branch_id IN [$view.line, $view.main] AND (sp.gone IS NULL AND ((sp.branch_id = $view.line AND sp.vfrom <= $view.ver AND $view.ver < sp.vto) OR ($view.line <> $view.main AND sp.branch_id = $view.main AND sp.vfrom <= $view.base AND $view.base < sp.vto AND NOT EXISTS {
      MATCH (shadow_sp:Port {branch_id: CASE WHEN sp.branch_id <> $view.line THEN $view.line END, id: sp.id})
        USING INDEX SEEK shadow_sp:Port(branch_id, id)
        WHERE shadow_sp.vfrom <= $view.ver
    })))
  OPTIONAL MATCH (sn:GNode {id: CASE WHEN sp.node_kind IS NULL THEN sp.node_id END})
    USING INDEX SEEK sn:GNode(branch_id, id)
    WHERE sn.branch_id IN [$view.line, $view.main] AND (sn.gone IS NULL AND ((sn.branch_id = $view.line AND sn.vfrom <= $view.ver AND $view.ver < sn.vto) OR ($view.line <> $view.main AND sn.branch_id = $view.main AND sn.vfrom <= $view.base AND $view.base < sn.vto AND NOT EXISTS {
      MATCH (shadow_sn:GNode {branch_id: CASE WHEN sn.branch_id <> $view.line THEN $view.line END, id: sn.id})
        USING INDEX SEEK shadow_sn:GNode(branch_id, id)
        WHERE shadow_sn.vfrom <= $view.ver
    })))
  OPTIONAL MATCH (tp:Port {id: e.target_handle})
    USING INDEX SEEK tp:Port(branch_id, id)
    WHERE tp.branch_id IN [$view.line, $view.main] AND (tp.gone IS NULL AND ((tp.branch_id = $view.line AND tp.vfrom <= $view.ver AND $view.ver < tp.vto) OR ($view.line <> $view.main AND tp.branch_id = $view.main AND tp.vfrom <= $view.base AND $view.base < tp.vto AND NOT EXISTS {
      MATCH (shadow_tp:Port {branch_id: CASE WHEN tp.branch_id <> $view.line THEN $view.line END, id: tp.id})
        USING INDEX SEEK shadow_tp:Port(branch_id, id)
        WHERE shadow_tp.vfrom <= $view.ver
    })))
  OPTIONAL MATCH (tn:GNode {id: CASE WHEN tp.node_kind IS NULL THEN tp.node_id END})
    USING INDEX SEEK tn:GNode(branch_id, id)
    WHERE tn.branch_id IN [$view.line, $view.main] AND (tn.gone IS NULL AND ((tn.branch_id = $view.line AND tn.vfrom <= $view.ver AND $view.ver < tn.vto) OR ($view.line <> $view.main AND tn.branch_id = $view.main AND tn.vfrom <= $view.base AND $view.base < tn.vto AND NOT EXISTS {
      MATCH (shadow_tn:GNode {branch_id: CASE WHEN tn.branch_id <> $view.line THEN $view.line END, id: tn.id})
        USING INDEX SEEK shadow_tn:GNode(branch_id, id)
        WHERE shadow_tn.vfrom <= $view.ver
    })))
  RETURN sp, sn, tp, tn
}
WITH {id: e.id, source: e.source_handle, target: e.target_handle, sourceChannel: sp.channel, sourceKind: coalesce(sp.node_kind, sn.kind), targetChannel: tp.channel, targetKind: coalesce(tp.node_kind, tn.kind)} AS wire
WITH wire
  ORDER BY wire.id
RETURN collect(wire) AS wires
