CYPHER replan=skip
CALL () {
  UNWIND $written.edgeIds AS id
  CALL (id) {
    OPTIONAL MATCH (e:Edge {id: id})
      USING INDEX SEEK e:Edge(branch_id, id)
      WHERE e.branch_id IN [$view.line, $view.main] AND (e.gone IS NULL AND ((e.branch_id = $view.line AND e.vfrom <= $view.ver AND $view.ver < e.vto) OR ($view.line <> $view.main AND e.branch_id = $view.main AND e.vfrom <= $view.base AND $view.base < e.vto AND NOT EXISTS {
        MATCH (shadow_e:Edge {branch_id: CASE WHEN e.branch_id <> $view.line THEN $view.line END, id: e.id})
          USING INDEX SEEK shadow_e:Edge(branch_id, id)
          WHERE shadow_e.vfrom <= $view.ver
      })))
    OPTIONAL MATCH (o:Edge {id: id})
      USING INDEX SEEK o:Edge(branch_id, id)
      WHERE o.branch_id IN [$prev.line, $prev.main] AND (o.gone IS NULL AND ((o.branch_id = $prev.line AND o.vfrom <= $prev.ver AND $prev.ver < o.vto) OR ($prev.line <> $prev.main AND o.branch_id = $prev.main AND o.vfrom <= $prev.base AND $prev.base < o.vto AND NOT EXISTS {
        MATCH (shadow_o:Edge {branch_id: CASE WHEN o.branch_id <> $prev.line THEN $prev.line END, id: o.id})
          USING INDEX SEEK shadow_o:Edge(branch_id, id)
          WHERE shadow_o.vfrom <= $prev.ver
      })))
    RETURN [e.target_handle, o.target_handle] AS ends
  }
  UNWIND ends AS pid
  WITH pid
    WHERE pid IS NOT NULL
  RETURN collect(DISTINCT pid) AS endPorts
}
CALL () {
  UNWIND $written.portIds AS pid
  CALL (pid) {
    MATCH (e:Edge {source_handle: pid})
      USING INDEX SEEK e:Edge(branch_id, source_handle)
      WHERE e.branch_id IN [$view.line, $view.main] AND (e.gone IS NULL AND ((e.branch_id = $view.line AND e.vfrom <= $view.ver AND $view.ver < e.vto) OR ($view.line <> $view.main AND e.branch_id = $view.main AND e.vfrom <= $view.base AND $view.base < e.vto AND NOT EXISTS {
        MATCH (shadow_e:Edge {branch_id: CASE WHEN e.branch_id <> $view.line THEN $view.line END, id: e.id})
          USING INDEX SEEK shadow_e:Edge(branch_id, id)
          WHERE shadow_e.vfrom <= $view.ver
      })))
    RETURN e.id AS eid
    UNION
    MATCH (e:Edge {target_handle: pid})
      USING INDEX SEEK e:Edge(branch_id, target_handle)
      WHERE e.branch_id IN [$view.line, $view.main] AND (e.gone IS NULL AND ((e.branch_id = $view.line AND e.vfrom <= $view.ver AND $view.ver < e.vto) OR ($view.line <> $view.main AND e.branch_id = $view.main AND e.vfrom <= $view.base AND $view.base < e.vto AND NOT EXISTS {
        MATCH (shadow_e:Edge {branch_id: CASE WHEN e.branch_id <> $view.line THEN $view.line END, id: e.id})
          USING INDEX SEEK shadow_e:Edge(branch_id, id)
          WHERE shadow_e.vfrom <= $view.ver
      })))
    RETURN e.id AS eid
  }
  RETURN collect(DISTINCT eid) AS portEdges
}
CALL () {
  UNWIND $written.nodeIds AS id
  CALL (id) {
    OPTIONAL MATCH (n:GNode {id: id})
      USING INDEX SEEK n:GNode(branch_id, id)
      WHERE n.branch_id IN [$view.line, $view.main] AND (n.gone IS NULL AND ((n.branch_id = $view.line AND n.vfrom <= $view.ver AND $view.ver < n.vto) OR ($view.line <> $view.main AND n.branch_id = $view.main AND n.vfrom <= $view.base AND $view.base < n.vto AND NOT EXISTS {
        MATCH (shadow_n:GNode {branch_id: CASE WHEN n.branch_id <> $view.line THEN $view.line END, id: n.id})
          USING INDEX SEEK shadow_n:GNode(branch_id, id)
          WHERE shadow_n.vfrom <= $view.ver
      })))
    OPTIONAL MATCH (o:GNode {id: id})
      USING INDEX SEEK o:GNode(branch_id, id)
      WHERE o.branch_id IN [$prev.line, $prev.main] AND (o.gone IS NULL AND ((o.branch_id = $prev.line AND o.vfrom <= $prev.ver AND $prev.ver < o.vto) OR ($prev.line <> $prev.main AND o.branch_id = $prev.main AND o.vfrom <= $prev.base AND $prev.base < o.vto AND NOT EXISTS {
        MATCH (shadow_o:GNode {branch_id: CASE WHEN o.branch_id <> $prev.line THEN $prev.line END, id: o.id})
          USING INDEX SEEK shadow_o:GNode(branch_id, id)
          WHERE shadow_o.vfrom <= $prev.ver
      })))
    RETURN n IS NOT NULL AND o IS NOT NULL AND (coalesce(n.parent_id, '') <> coalesce(o.parent_id, '') OR coalesce(n.source_decisions, []) <> coalesce(o.source_decisions, [])) AS moved
  }
  WITH id
    WHERE moved
  RETURN collect(id) AS movedNodes
}
WITH movedNodes, COLLECT {
  UNWIND $written.portIds + endPorts AS x
  RETURN DISTINCT x
} AS ports, COLLECT {
  UNWIND $written.edgeIds + portEdges AS x
  RETURN DISTINCT x
} AS edges
CALL (ports) {
  UNWIND ports AS id
  MATCH (p:Port {id: id})
    USING INDEX SEEK p:Port(branch_id, id)
    WHERE p.branch_id IN [$view.line, $view.main] AND (p.gone IS NULL AND ((p.branch_id = $view.line AND p.vfrom <= $view.ver AND $view.ver < p.vto) OR ($view.line <> $view.main AND p.branch_id = $view.main AND p.vfrom <= $view.base AND $view.base < p.vto AND NOT EXISTS {
      MATCH (shadow_p:Port {branch_id: CASE WHEN p.branch_id <> $view.line THEN $view.line END, id: p.id})
        USING INDEX SEEK shadow_p:Port(branch_id, id)
        WHERE shadow_p.vfrom <= $view.ver
    }))) AND p.channel = 'inputs' AND NOT EXISTS {
      MATCH (e:Edge {target_handle: p.id})
        USING INDEX SEEK e:Edge(branch_id, target_handle)
        WHERE e.branch_id IN [$view.line, $view.main] AND (e.gone IS NULL AND ((e.branch_id = $view.line AND e.vfrom <= $view.ver AND $view.ver < e.vto) OR ($view.line <> $view.main AND e.branch_id = $view.main AND e.vfrom <= $view.base AND $view.base < e.vto AND NOT EXISTS {
          MATCH (shadow_e:Edge {branch_id: CASE WHEN e.branch_id <> $view.line THEN $view.line END, id: e.id})
            USING INDEX SEEK shadow_e:Edge(branch_id, id)
            WHERE shadow_e.vfrom <= $view.ver
        })))
    }
  RETURN collect({locator: p.id, name: left(coalesce(p.name, ''), $quoted)}) AS portRows
}
CALL (edges) {
  CALL (edges) {
    UNWIND edges AS id
    MATCH (e:Edge {id: id})
      USING INDEX SEEK e:Edge(branch_id, id)
      WHERE e.branch_id IN [$view.line, $view.main] AND (e.gone IS NULL AND ((e.branch_id = $view.line AND e.vfrom <= $view.ver AND $view.ver < e.vto) OR ($view.line <> $view.main AND e.branch_id = $view.main AND e.vfrom <= $view.base AND $view.base < e.vto AND NOT EXISTS {
        MATCH (shadow_e:Edge {branch_id: CASE WHEN e.branch_id <> $view.line THEN $view.line END, id: e.id})
          USING INDEX SEEK shadow_e:Edge(branch_id, id)
          WHERE shadow_e.vfrom <= $view.ver
      })))
    OPTIONAL MATCH (sp:Port {id: e.source_handle})
      USING INDEX SEEK sp:Port(branch_id, id)
      WHERE sp.branch_id IN [$view.line, $view.main] AND (sp.gone IS NULL AND ((sp.branch_id = $view.line AND sp.vfrom <= $view.ver AND $view.ver < sp.vto) OR ($view.line <> $view.main AND sp.branch_id = $view.main AND sp.vfrom <= $view.base AND $view.base < sp.vto AND NOT EXISTS {
        MATCH (shadow_sp:Port {branch_id: CASE WHEN sp.branch_id <> $view.line THEN $view.line END, id: sp.id})
          USING INDEX SEEK shadow_sp:Port(branch_id, id)
          WHERE shadow_sp.vfrom <= $view.ver
      })))
    OPTIONAL MATCH (tp:Port {id: e.target_handle})
      USING INDEX SEEK tp:Port(branch_id, id)
      WHERE tp.branch_id IN [$view.line, $view.main] AND (tp.gone IS NULL AND ((tp.branch_id = $view.line AND tp.vfrom <= $view.ver AND $view.ver < tp.vto) OR ($view.line <> $view.main AND tp.branch_id = $view.main AND tp.vfrom <= $view.base AND $view.base < tp.vto AND NOT EXISTS {
        MATCH (shadow_tp:Port {branch_id: CASE WHEN tp.branch_id <> $view.line THEN $view.line END, id: tp.id})
          USING INDEX SEEK shadow_tp:Port(branch_id, id)
          WHERE shadow_tp.vfrom <= $view.ver
      })))
    WITH e, sp, tp, (e.source_handle IS NOT NULL AND sp IS NULL) OR (e.target_handle IS NOT NULL AND tp IS NULL) AS dangling
      WHERE dangling OR (sp IS NOT NULL AND tp IS NOT NULL AND sp.type <> tp.type)
    RETURN e.id AS locator, dangling, left(coalesce(sp.type, ''), $quoted) AS sourceType, left(coalesce(tp.type, ''), $quoted) AS targetType
  }
  RETURN collect({locator: locator, dangling: dangling, sourceType: sourceType, targetType: targetType}) AS edgeRows
}
CALL () {
  UNWIND $written.nodeIds AS id
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
}
CALL (ports, edges) {
  UNWIND ports + edges + $written.nodeIds AS sid
  MATCH (f:GFinding {subject: sid})
    USING INDEX SEEK f:GFinding(branch_id, subject)
    WHERE f.branch_id IN [$view.line, $view.main] AND (f.gone IS NULL AND ((f.branch_id = $view.line AND f.vfrom <= $view.ver AND $view.ver < f.vto) OR ($view.line <> $view.main AND f.branch_id = $view.main AND f.vfrom <= $view.base AND $view.base < f.vto AND NOT EXISTS {
      MATCH (shadow_f:GFinding {branch_id: CASE WHEN f.branch_id <> $view.line THEN $view.line END, id: f.id})
        USING INDEX SEEK shadow_f:GFinding(branch_id, id)
        WHERE shadow_f.vfrom <= $view.ver
    })))
  RETURN collect({id: f.id, code: f.code, locator: f.locator, severity: f.severity, message: f.message}) AS keptRecords
}
OPTIONAL MATCH (b:Branch {id: $view.line})
OPTIONAL MATCH (m:Branch {id: $view.main})
RETURN ports, edges, movedNodes, portRows, edgeRows, nodeRows, keptRecords, (coalesce(b.findings_from <= $view.ver, false) AND ($view.line = $view.main OR coalesce(m.findings_from <= $view.base, false))) AS kept
