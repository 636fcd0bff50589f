CALL () {
  UNWIND $removedNodes AS r
  CALL (r) {
    MATCH (c:GNode {parent_id: r})
      USING INDEX SEEK c:GNode(branch_id, parent_id)
      WHERE c.branch_id IN [$view.line, $view.main] AND (c.gone IS NULL AND ((c.branch_id = $view.line AND c.vfrom <= $view.ver AND $view.ver < c.vto) OR ($view.line <> $view.main AND c.branch_id = $view.main AND c.vfrom <= $view.base AND $view.base < c.vto AND NOT EXISTS {
        MATCH (shadow_c:GNode {branch_id: CASE WHEN c.branch_id <> $view.line THEN $view.line END, id: c.id})
          USING INDEX SEEK shadow_c:GNode(branch_id, id)
          WHERE shadow_c.vfrom <= $view.ver
      })))
    RETURN 'node' AS kind, c.id AS id
    UNION
    MATCH (p:Port {node_id: r})
      USING INDEX SEEK p:Port(branch_id, node_id)
      WHERE p.branch_id IN [$view.line, $view.main] AND (p.gone IS NULL AND ((p.branch_id = $view.line AND p.vfrom <= $view.ver AND $view.ver < p.vto) OR ($view.line <> $view.main AND p.branch_id = $view.main AND p.vfrom <= $view.base AND $view.base < p.vto AND NOT EXISTS {
        MATCH (shadow_p:Port {branch_id: CASE WHEN p.branch_id <> $view.line THEN $view.line END, id: p.id})
          USING INDEX SEEK shadow_p:Port(branch_id, id)
          WHERE shadow_p.vfrom <= $view.ver
      })))
    RETURN 'port' AS kind, p.id AS id
  }
  RETURN kind, id
  UNION
  UNWIND $removedPorts AS r
  CALL (r) {
    MATCH (e:Edge {source_handle: r})
      USING INDEX SEEK e:Edge(branch_id, source_handle)
      WHERE e.branch_id IN [$view.line, $view.main] AND (e.gone IS NULL AND ((e.branch_id = $view.line AND e.vfrom <= $view.ver AND $view.ver < e.vto) OR ($view.line <> $view.main AND e.branch_id = $view.main AND e.vfrom <= $view.base AND $view.base < e.vto AND NOT EXISTS {
        MATCH (shadow_e:Edge {branch_id: CASE WHEN e.branch_id <> $view.line THEN $view.line END, id: e.id})
          USING INDEX SEEK shadow_e:Edge(branch_id, id)
          WHERE shadow_e.vfrom <= $view.ver
      })))
    RETURN 'edge' AS kind, e.id AS id
    UNION
    MATCH (e:Edge {target_handle: r})
      USING INDEX SEEK e:Edge(branch_id, target_handle)
      WHERE e.branch_id IN [$view.line, $view.main] AND (e.gone IS NULL AND ((e.branch_id = $view.line AND e.vfrom <= $view.ver AND $view.ver < e.vto) OR ($view.line <> $view.main AND e.branch_id = $view.main AND e.vfrom <= $view.base AND $view.base < e.vto AND NOT EXISTS {
        MATCH (shadow_e:Edge {branch_id: CASE WHEN e.branch_id <> $view.line THEN $view.line END, id: e.id})
          USING INDEX SEEK shadow_e:Edge(branch_id, id)
          WHERE shadow_e.vfrom <= $view.ver
      })))
    RETURN 'edge' AS kind, e.id AS id
  }
  RETURN kind, id
  UNION
  UNWIND $writtenNodes AS nid
  MATCH (n:GNode {id: nid})
    USING INDEX SEEK n:GNode(branch_id, id)
    WHERE n.branch_id IN [$view.line, $view.main] AND (n.gone IS NULL AND ((n.branch_id = $view.line AND n.vfrom <= $view.ver AND $view.ver < n.vto) OR ($view.line <> $view.main AND n.branch_id = $view.main AND n.vfrom <= $view.base AND $view.base < n.vto AND NOT EXISTS {
      MATCH (shadow_n:GNode {branch_id: CASE WHEN n.branch_id <> $view.line THEN $view.line END, id: n.id})
        USING INDEX SEEK shadow_n:GNode(branch_id, id)
        WHERE shadow_n.vfrom <= $view.ver
    })))
  CALL (n) {
    WITH n
      WHERE n.parent_id IS NOT NULL AND NOT EXISTS {
        MATCH (pp:GNode {id: n.parent_id})
          USING INDEX SEEK pp:GNode(branch_id, id)
          WHERE pp.branch_id IN [$view.line, $view.main] AND (pp.gone IS NULL AND ((pp.branch_id = $view.line AND pp.vfrom <= $view.ver AND $view.ver < pp.vto) OR ($view.line <> $view.main AND pp.branch_id = $view.main AND pp.vfrom <= $view.base AND $view.base < pp.vto AND NOT EXISTS {
            MATCH (shadow_pp:GNode {branch_id: CASE WHEN pp.branch_id <> $view.line THEN $view.line END, id: pp.id})
              USING INDEX SEEK shadow_pp:GNode(branch_id, id)
              WHERE shadow_pp.vfrom <= $view.ver
          })))
      }
    RETURN 'node' AS kind, n.parent_id AS id
    UNION
    WITH n
      WHERE coalesce(n.name, '') <> ''
    MATCH (o:GNode {scope: n.scope, name: n.name})
      USING INDEX SEEK o:GNode(branch_id, scope, name)
      WHERE o.branch_id IN [$view.line, $view.main] AND (o.gone IS NULL AND ((o.branch_id = $view.line AND o.vfrom <= $view.ver AND $view.ver < o.vto) OR ($view.line <> $view.main AND o.branch_id = $view.main AND o.vfrom <= $view.base AND $view.base < o.vto AND NOT EXISTS {
        MATCH (shadow_o:GNode {branch_id: CASE WHEN o.branch_id <> $view.line THEN $view.line END, id: o.id})
          USING INDEX SEEK shadow_o:GNode(branch_id, id)
          WHERE shadow_o.vfrom <= $view.ver
      }))) AND o.id <> n.id
    RETURN 'node' AS kind, o.id AS id
  }
  RETURN kind, id
  UNION
  UNWIND $writtenPorts AS pid
  MATCH (q:Port {id: pid})
    USING INDEX SEEK q:Port(branch_id, id)
    WHERE q.branch_id IN [$view.line, $view.main] AND (q.gone IS NULL AND ((q.branch_id = $view.line AND q.vfrom <= $view.ver AND $view.ver < q.vto) OR ($view.line <> $view.main AND q.branch_id = $view.main AND q.vfrom <= $view.base AND $view.base < q.vto AND NOT EXISTS {
      MATCH (shadow_q:Port {branch_id: CASE WHEN q.branch_id <> $view.line THEN $view.line END, id: q.id})
        USING INDEX SEEK shadow_q:Port(branch_id, id)
        WHERE shadow_q.vfrom <= $view.ver
    }))) AND NOT EXISTS {
      MATCH (qn:GNode {id: q.node_id})
        USING INDEX SEEK qn:GNode(branch_id, id)
        WHERE qn.branch_id IN [$view.line, $view.main] AND (qn.gone IS NULL AND ((qn.branch_id = $view.line AND qn.vfrom <= $view.ver AND $view.ver < qn.vto) OR ($view.line <> $view.main AND qn.branch_id = $view.main AND qn.vfrom <= $view.base AND $view.base < qn.vto AND NOT EXISTS {
          MATCH (shadow_qn:GNode {branch_id: CASE WHEN qn.branch_id <> $view.line THEN $view.line END, id: qn.id})
            USING INDEX SEEK shadow_qn:GNode(branch_id, id)
            WHERE shadow_qn.vfrom <= $view.ver
        })))
    }
  RETURN 'node' AS kind, q.node_id AS id
  UNION
  UNWIND $writtenEdges AS eid
  MATCH (w:Edge {id: eid})
    USING INDEX SEEK w:Edge(branch_id, id)
    WHERE w.branch_id IN [$view.line, $view.main] AND (w.gone IS NULL AND ((w.branch_id = $view.line AND w.vfrom <= $view.ver AND $view.ver < w.vto) OR ($view.line <> $view.main AND w.branch_id = $view.main AND w.vfrom <= $view.base AND $view.base < w.vto AND NOT EXISTS {
      MATCH (shadow_w:Edge {branch_id: CASE WHEN w.branch_id <> $view.line THEN $view.line END, id: w.id})
        USING INDEX SEEK shadow_w:Edge(branch_id, id)
        WHERE shadow_w.vfrom <= $view.ver
    })))
  UNWIND [w.source_handle, w.target_handle] AS handle
  WITH handle
    WHERE handle IS NOT NULL AND NOT EXISTS {
      MATCH (hp:Port {id: handle})
        USING INDEX SEEK hp:Port(branch_id, id)
        WHERE hp.branch_id IN [$view.line, $view.main] AND (hp.gone IS NULL AND ((hp.branch_id = $view.line AND hp.vfrom <= $view.ver AND $view.ver < hp.vto) OR ($view.line <> $view.main AND hp.branch_id = $view.main AND hp.vfrom <= $view.base AND $view.base < hp.vto AND NOT EXISTS {
          MATCH (shadow_hp:Port {branch_id: CASE WHEN hp.branch_id <> $view.line THEN $view.line END, id: hp.id})
            USING INDEX SEEK shadow_hp:Port(branch_id, id)
            WHERE shadow_hp.vfrom <= $view.ver
        })))
    }
  RETURN 'port' AS kind, handle AS id
}
RETURN DISTINCT kind, id
