CYPHER replan=skip
MATCH (pr:Project {id: $projectId})
  WHERE pr.deleted_at IS NULL
OPTIONAL MATCH (:User {id: $userId})-[m:MEMBER_OF]->(pr)
OPTIONAL MATCH (b:Branch {project_id: $projectId, is_main: true})
  WHERE b.deleted_at IS NULL AND b.owner_id IS NOT NULL
WITH pr, m, b, {line: b.id, ver: coalesce(toInteger($at.version), b.version), main: b.main_id, base: CASE WHEN b.id = b.main_id THEN coalesce(toInteger($at.version), b.version) ELSE coalesce(head([i IN range(0, size(coalesce(b.prior_base_until, [])) - 1) WHERE coalesce(toInteger($at.version), b.version) < b.prior_base_until[i] | b.prior_bases[i]]), b.base_main_version) END, head: CASE WHEN $at.version IS NULL OR toInteger($at.version) = b.version THEN null ELSE {line: b.id, ver: b.version, main: b.main_id, base: CASE WHEN b.id = b.main_id THEN b.version ELSE coalesce(head([i IN range(0, size(coalesce(b.prior_base_until, [])) - 1) WHERE b.version < b.prior_base_until[i] | b.prior_bases[i]]), b.base_main_version) END} END} AS view OPTIONAL CALL (b, view) {
  MATCH (bn:GNode {id: $nodeId})
    USING INDEX SEEK bn:GNode(branch_id, id)
    WHERE bn.branch_id IN [view.line, view.main] AND (bn.gone IS NULL AND ((bn.branch_id = view.line AND bn.vfrom <= view.ver AND view.ver < bn.vto) OR (view.line <> view.main AND bn.branch_id = view.main AND bn.vfrom <= view.base AND view.base < bn.vto AND NOT EXISTS {
      MATCH (shadow_bn:GNode {branch_id: CASE WHEN bn.branch_id <> view.line THEN view.line END, id: bn.id})
        USING INDEX SEEK shadow_bn:GNode(branch_id, id)
        WHERE shadow_bn.vfrom <= view.ver
    }))) AND b IS NOT NULL
  CALL (bn, view) {
    OPTIONAL MATCH (a1:GNode {id: bn.parent_id})
      USING INDEX SEEK a1:GNode(branch_id, id)
      WHERE a1.branch_id IN [view.line, view.main] AND (a1.gone IS NULL AND ((a1.branch_id = view.line AND a1.vfrom <= view.ver AND view.ver < a1.vto) OR (view.line <> view.main AND a1.branch_id = view.main AND a1.vfrom <= view.base AND view.base < a1.vto AND NOT EXISTS {
        MATCH (shadow_a1:GNode {branch_id: CASE WHEN a1.branch_id <> view.line THEN view.line END, id: a1.id})
          USING INDEX SEEK shadow_a1:GNode(branch_id, id)
          WHERE shadow_a1.vfrom <= view.ver
      })))
    OPTIONAL MATCH (a2:GNode {id: a1.parent_id})
      USING INDEX SEEK a2:GNode(branch_id, id)
      WHERE a2.branch_id IN [view.line, view.main] AND (a2.gone IS NULL AND ((a2.branch_id = view.line AND a2.vfrom <= view.ver AND view.ver < a2.vto) OR (view.line <> view.main AND a2.branch_id = view.main AND a2.vfrom <= view.base AND view.base < a2.vto AND NOT EXISTS {
        MATCH (shadow_a2:GNode {branch_id: CASE WHEN a2.branch_id <> view.line THEN view.line END, id: a2.id})
          USING INDEX SEEK shadow_a2:GNode(branch_id, id)
          WHERE shadow_a2.vfrom <= view.ver
      })))
    OPTIONAL MATCH (a3:GNode {id: a2.parent_id})
      USING INDEX SEEK a3:GNode(branch_id, id)
      WHERE a3.branch_id IN [view.line, view.main] AND (a3.gone IS NULL AND ((a3.branch_id = view.line AND a3.vfrom <= view.ver AND view.ver < a3.vto) OR (view.line <> view.main AND a3.branch_id = view.main AND a3.vfrom <= view.base AND view.base < a3.vto AND NOT EXISTS {
        MATCH (shadow_a3:GNode {branch_id: CASE WHEN a3.branch_id <> view.line THEN view.line END, id: a3.id})
          USING INDEX SEEK shadow_a3:GNode(branch_id, id)
          WHERE shadow_a3.vfrom <= view.ver
      })))
    OPTIONAL MATCH (a4:GNode {id: a3.parent_id})
      USING INDEX SEEK a4:GNode(branch_id, id)
      WHERE a4.branch_id IN [view.line, view.main] AND (a4.gone IS NULL AND ((a4.branch_id = view.line AND a4.vfrom <= view.ver AND view.ver < a4.vto) OR (view.line <> view.main AND a4.branch_id = view.main AND a4.vfrom <= view.base AND view.base < a4.vto AND NOT EXISTS {
        MATCH (shadow_a4:GNode {branch_id: CASE WHEN a4.branch_id <> view.line THEN view.line END, id: a4.id})
          USING INDEX SEEK shadow_a4:GNode(branch_id, id)
          WHERE shadow_a4.vfrom <= view.ver
      })))
    OPTIONAL MATCH (a5:GNode {id: a4.parent_id})
      USING INDEX SEEK a5:GNode(branch_id, id)
      WHERE a5.branch_id IN [view.line, view.main] AND (a5.gone IS NULL AND ((a5.branch_id = view.line AND a5.vfrom <= view.ver AND view.ver < a5.vto) OR (view.line <> view.main AND a5.branch_id = view.main AND a5.vfrom <= view.base AND view.base < a5.vto AND NOT EXISTS {
        MATCH (shadow_a5:GNode {branch_id: CASE WHEN a5.branch_id <> view.line THEN view.line END, id: a5.id})
          USING INDEX SEEK shadow_a5:GNode(branch_id, id)
          WHERE shadow_a5.vfrom <= view.ver
      })))
    OPTIONAL MATCH (a6:GNode {id: a5.parent_id})
      USING INDEX SEEK a6:GNode(branch_id, id)
      WHERE a6.branch_id IN [view.line, view.main] AND (a6.gone IS NULL AND ((a6.branch_id = view.line AND a6.vfrom <= view.ver AND view.ver < a6.vto) OR (view.line <> view.main AND a6.branch_id = view.main AND a6.vfrom <= view.base AND view.base < a6.vto AND NOT EXISTS {
        MATCH (shadow_a6:GNode {branch_id: CASE WHEN a6.branch_id <> view.line THEN view.line END, id: a6.id})
          USING INDEX SEEK shadow_a6:GNode(branch_id, id)
          WHERE shadow_a6.vfrom <= view.ver
      })))
    OPTIONAL MATCH (a7:GNode {id: a6.parent_id})
      USING INDEX SEEK a7:GNode(branch_id, id)
      WHERE a7.branch_id IN [view.line, view.main] AND (a7.gone IS NULL AND ((a7.branch_id = view.line AND a7.vfrom <= view.ver AND view.ver < a7.vto) OR (view.line <> view.main AND a7.branch_id = view.main AND a7.vfrom <= view.base AND view.base < a7.vto AND NOT EXISTS {
        MATCH (shadow_a7:GNode {branch_id: CASE WHEN a7.branch_id <> view.line THEN view.line END, id: a7.id})
          USING INDEX SEEK shadow_a7:GNode(branch_id, id)
          WHERE shadow_a7.vfrom <= view.ver
      })))
    OPTIONAL MATCH (a8:GNode {id: a7.parent_id})
      USING INDEX SEEK a8:GNode(branch_id, id)
      WHERE a8.branch_id IN [view.line, view.main] AND (a8.gone IS NULL AND ((a8.branch_id = view.line AND a8.vfrom <= view.ver AND view.ver < a8.vto) OR (view.line <> view.main AND a8.branch_id = view.main AND a8.vfrom <= view.base AND view.base < a8.vto AND NOT EXISTS {
        MATCH (shadow_a8:GNode {branch_id: CASE WHEN a8.branch_id <> view.line THEN view.line END, id: a8.id})
          USING INDEX SEEK shadow_a8:GNode(branch_id, id)
          WHERE shadow_a8.vfrom <= view.ver
      })))
    RETURN reverse([x IN [bn, a1, a2, a3, a4, a5, a6, a7, a8] WHERE x IS NOT NULL | x.name]) AS names, a8.parent_id AS namesRest
  }
  CALL (bn, view) {
    MATCH (c:GNode {parent_id: bn.id})
      USING INDEX SEEK c:GNode(branch_id, parent_id)
      WHERE c.branch_id IN [view.line, view.main] AND (c.gone IS NULL AND ((c.branch_id = view.line AND c.vfrom <= view.ver AND view.ver < c.vto) OR (view.line <> view.main AND c.branch_id = view.main AND c.vfrom <= view.base AND view.base < c.vto AND NOT EXISTS {
        MATCH (shadow_c:GNode {branch_id: CASE WHEN c.branch_id <> view.line THEN view.line END, id: c.id})
          USING INDEX SEEK shadow_c:GNode(branch_id, id)
          WHERE shadow_c.vfrom <= view.ver
      })))
    WITH c, view
      ORDER BY c.id
    RETURN collect({node: CASE WHEN view.head IS NULL OR (c.branch_id = view.head.line AND view.head.ver < c.vto) THEN c {.*} ELSE coalesce(head(COLLECT {
      MATCH (hp:GNode {id: c.id})
        USING INDEX SEEK hp:GNode(branch_id, id)
        WHERE hp.branch_id IN [view.head.line, view.head.main] AND (hp.gone IS NULL AND ((hp.branch_id = view.head.line AND hp.vfrom <= view.head.ver AND view.head.ver < hp.vto) OR (view.head.line <> view.head.main AND hp.branch_id = view.head.main AND hp.vfrom <= view.head.base AND view.head.base < hp.vto AND NOT EXISTS {
          MATCH (shadow_hp:GNode {branch_id: CASE WHEN hp.branch_id <> view.head.line THEN view.head.line END, id: hp.id})
            USING INDEX SEEK shadow_hp:GNode(branch_id, id)
            WHERE shadow_hp.vfrom <= view.head.ver
        })))
      RETURN c {.*, x: hp.x, y: hp.y} AS atHead
    }), c {.*}) END, ports: COLLECT {
      MATCH (pt:Port {node_id: c.id})
        USING INDEX SEEK pt:Port(branch_id, node_id)
        WHERE pt.branch_id IN [view.line, view.main] AND (pt.gone IS NULL AND ((pt.branch_id = view.line AND pt.vfrom <= view.ver AND view.ver < pt.vto) OR (view.line <> view.main AND pt.branch_id = view.main AND pt.vfrom <= view.base AND view.base < pt.vto AND NOT EXISTS {
          MATCH (shadow_pt:Port {branch_id: CASE WHEN pt.branch_id <> view.line THEN view.line END, id: pt.id})
            USING INDEX SEEK shadow_pt:Port(branch_id, id)
            WHERE shadow_pt.vfrom <= view.ver
        })))
      RETURN pt {.*}
    }}) AS children
  }
  WITH bn, names, namesRest, children, [bn.id] AS start, view
  CALL (start, view) {
    WITH start AS f0, view
    CALL (f0, view) {
      UNWIND f0 AS x
      MATCH (c:GNode {parent_id: x})
        USING INDEX SEEK c:GNode(branch_id, parent_id)
        WHERE c.branch_id IN [view.line, view.main] AND (c.gone IS NULL AND ((c.branch_id = view.line AND c.vfrom <= view.ver AND view.ver < c.vto) OR (view.line <> view.main AND c.branch_id = view.main AND c.vfrom <= view.base AND view.base < c.vto AND NOT EXISTS {
          MATCH (shadow_c:GNode {branch_id: CASE WHEN c.branch_id <> view.line THEN view.line END, id: c.id})
            USING INDEX SEEK shadow_c:GNode(branch_id, id)
            WHERE shadow_c.vfrom <= view.ver
        })))
      RETURN collect(c.id) AS f1
    }
    CALL (f1, view) {
      UNWIND f1 AS x
      MATCH (c:GNode {parent_id: x})
        USING INDEX SEEK c:GNode(branch_id, parent_id)
        WHERE c.branch_id IN [view.line, view.main] AND (c.gone IS NULL AND ((c.branch_id = view.line AND c.vfrom <= view.ver AND view.ver < c.vto) OR (view.line <> view.main AND c.branch_id = view.main AND c.vfrom <= view.base AND view.base < c.vto AND NOT EXISTS {
          MATCH (shadow_c:GNode {branch_id: CASE WHEN c.branch_id <> view.line THEN view.line END, id: c.id})
            USING INDEX SEEK shadow_c:GNode(branch_id, id)
            WHERE shadow_c.vfrom <= view.ver
        })))
      RETURN collect(c.id) AS f2
    }
    CALL (f2, view) {
      UNWIND f2 AS x
      MATCH (c:GNode {parent_id: x})
        USING INDEX SEEK c:GNode(branch_id, parent_id)
        WHERE c.branch_id IN [view.line, view.main] AND (c.gone IS NULL AND ((c.branch_id = view.line AND c.vfrom <= view.ver AND view.ver < c.vto) OR (view.line <> view.main AND c.branch_id = view.main AND c.vfrom <= view.base AND view.base < c.vto AND NOT EXISTS {
          MATCH (shadow_c:GNode {branch_id: CASE WHEN c.branch_id <> view.line THEN view.line END, id: c.id})
            USING INDEX SEEK shadow_c:GNode(branch_id, id)
            WHERE shadow_c.vfrom <= view.ver
        })))
      RETURN collect(c.id) AS f3
    }
    CALL (f3, view) {
      UNWIND f3 AS x
      MATCH (c:GNode {parent_id: x})
        USING INDEX SEEK c:GNode(branch_id, parent_id)
        WHERE c.branch_id IN [view.line, view.main] AND (c.gone IS NULL AND ((c.branch_id = view.line AND c.vfrom <= view.ver AND view.ver < c.vto) OR (view.line <> view.main AND c.branch_id = view.main AND c.vfrom <= view.base AND view.base < c.vto AND NOT EXISTS {
          MATCH (shadow_c:GNode {branch_id: CASE WHEN c.branch_id <> view.line THEN view.line END, id: c.id})
            USING INDEX SEEK shadow_c:GNode(branch_id, id)
            WHERE shadow_c.vfrom <= view.ver
        })))
      RETURN collect(c.id) AS f4
    }
    CALL (f4, view) {
      UNWIND f4 AS x
      MATCH (c:GNode {parent_id: x})
        USING INDEX SEEK c:GNode(branch_id, parent_id)
        WHERE c.branch_id IN [view.line, view.main] AND (c.gone IS NULL AND ((c.branch_id = view.line AND c.vfrom <= view.ver AND view.ver < c.vto) OR (view.line <> view.main AND c.branch_id = view.main AND c.vfrom <= view.base AND view.base < c.vto AND NOT EXISTS {
          MATCH (shadow_c:GNode {branch_id: CASE WHEN c.branch_id <> view.line THEN view.line END, id: c.id})
            USING INDEX SEEK shadow_c:GNode(branch_id, id)
            WHERE shadow_c.vfrom <= view.ver
        })))
      RETURN collect(c.id) AS f5
    }
    CALL (f5, view) {
      UNWIND f5 AS x
      MATCH (c:GNode {parent_id: x})
        USING INDEX SEEK c:GNode(branch_id, parent_id)
        WHERE c.branch_id IN [view.line, view.main] AND (c.gone IS NULL AND ((c.branch_id = view.line AND c.vfrom <= view.ver AND view.ver < c.vto) OR (view.line <> view.main AND c.branch_id = view.main AND c.vfrom <= view.base AND view.base < c.vto AND NOT EXISTS {
          MATCH (shadow_c:GNode {branch_id: CASE WHEN c.branch_id <> view.line THEN view.line END, id: c.id})
            USING INDEX SEEK shadow_c:GNode(branch_id, id)
            WHERE shadow_c.vfrom <= view.ver
        })))
      RETURN collect(c.id) AS f6
    }
    CALL (f6, view) {
      UNWIND f6 AS x
      MATCH (c:GNode {parent_id: x})
        USING INDEX SEEK c:GNode(branch_id, parent_id)
        WHERE c.branch_id IN [view.line, view.main] AND (c.gone IS NULL AND ((c.branch_id = view.line AND c.vfrom <= view.ver AND view.ver < c.vto) OR (view.line <> view.main AND c.branch_id = view.main AND c.vfrom <= view.base AND view.base < c.vto AND NOT EXISTS {
          MATCH (shadow_c:GNode {branch_id: CASE WHEN c.branch_id <> view.line THEN view.line END, id: c.id})
            USING INDEX SEEK shadow_c:GNode(branch_id, id)
            WHERE shadow_c.vfrom <= view.ver
        })))
      RETURN collect(c.id) AS f7
    }
    CALL (f7, view) {
      UNWIND f7 AS x
      MATCH (c:GNode {parent_id: x})
        USING INDEX SEEK c:GNode(branch_id, parent_id)
        WHERE c.branch_id IN [view.line, view.main] AND (c.gone IS NULL AND ((c.branch_id = view.line AND c.vfrom <= view.ver AND view.ver < c.vto) OR (view.line <> view.main AND c.branch_id = view.main AND c.vfrom <= view.base AND view.base < c.vto AND NOT EXISTS {
          MATCH (shadow_c:GNode {branch_id: CASE WHEN c.branch_id <> view.line THEN view.line END, id: c.id})
            USING INDEX SEEK shadow_c:GNode(branch_id, id)
            WHERE shadow_c.vfrom <= view.ver
        })))
      RETURN collect(c.id) AS f8
    }
    RETURN f1 + f2 + f3 + f4 + f5 + f6 + f7 + f8 AS below, f8 AS belowFrontier
  }
  CALL (bn, children, below, view) {
    WITH bn, view, COLLECT {
      MATCH (pt:Port {node_id: bn.id})
        USING INDEX SEEK pt:Port(branch_id, node_id)
        WHERE pt.branch_id IN [view.line, view.main] AND (pt.gone IS NULL AND ((pt.branch_id = view.line AND pt.vfrom <= view.ver AND view.ver < pt.vto) OR (view.line <> view.main AND pt.branch_id = view.main AND pt.vfrom <= view.base AND view.base < pt.vto AND NOT EXISTS {
          MATCH (shadow_pt:Port {branch_id: CASE WHEN pt.branch_id <> view.line THEN view.line END, id: pt.id})
            USING INDEX SEEK shadow_pt:Port(branch_id, id)
            WHERE shadow_pt.vfrom <= view.ver
        })))
      RETURN pt {.*}
    } AS ownPorts
    WITH view, [x IN ownPorts | x.id] AS own, ownPorts, children, below[size(children)..] AS deeper
    CALL (ownPorts, children, deeper, view) {
      UNWIND ownPorts AS p
      RETURN p
      UNION ALL
      UNWIND children AS c
      UNWIND c.ports AS p
      RETURN p
      UNION ALL
      UNWIND deeper AS id
      MATCH (pt:Port {node_id: id})
        USING INDEX SEEK pt:Port(branch_id, node_id)
        WHERE pt.branch_id IN [view.line, view.main] AND (pt.gone IS NULL AND ((pt.branch_id = view.line AND pt.vfrom <= view.ver AND view.ver < pt.vto) OR (view.line <> view.main AND pt.branch_id = view.main AND pt.vfrom <= view.base AND view.base < pt.vto AND NOT EXISTS {
          MATCH (shadow_pt:Port {branch_id: CASE WHEN pt.branch_id <> view.line THEN view.line END, id: pt.id})
            USING INDEX SEEK shadow_pt:Port(branch_id, id)
            WHERE shadow_pt.vfrom <= view.ver
        })))
      RETURN pt {.id, .channel} AS p
    }
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
  }
  RETURN CASE WHEN view.head IS NULL OR (bn.branch_id = view.head.line AND view.head.ver < bn.vto) THEN bn {.*} ELSE coalesce(head(COLLECT {
    MATCH (hp:GNode {id: bn.id})
      USING INDEX SEEK hp:GNode(branch_id, id)
      WHERE hp.branch_id IN [view.head.line, view.head.main] AND (hp.gone IS NULL AND ((hp.branch_id = view.head.line AND hp.vfrom <= view.head.ver AND view.head.ver < hp.vto) OR (view.head.line <> view.head.main AND hp.branch_id = view.head.main AND hp.vfrom <= view.head.base AND view.head.base < hp.vto AND NOT EXISTS {
        MATCH (shadow_hp:GNode {branch_id: CASE WHEN hp.branch_id <> view.head.line THEN view.head.line END, id: hp.id})
          USING INDEX SEEK shadow_hp:GNode(branch_id, id)
          WHERE shadow_hp.vfrom <= view.head.ver
      })))
    RETURN bn {.*, x: hp.x, y: hp.y} AS atHead
  }), bn {.*}) END AS node, COLLECT {
    MATCH (pt:Port {node_id: bn.id})
      USING INDEX SEEK pt:Port(branch_id, node_id)
      WHERE pt.branch_id IN [view.line, view.main] AND (pt.gone IS NULL AND ((pt.branch_id = view.line AND pt.vfrom <= view.ver AND view.ver < pt.vto) OR (view.line <> view.main AND pt.branch_id = view.main AND pt.vfrom <= view.base AND view.base < pt.vto AND NOT EXISTS {
        MATCH (shadow_pt:Port {branch_id: CASE WHEN pt.branch_id <> view.line THEN view.line END, id: pt.id})
          USING INDEX SEEK shadow_pt:Port(branch_id, id)
          WHERE shadow_pt.vfrom <= view.ver
      })))
    RETURN pt {.*}
  } AS ports, names, namesRest, children, below, belowFrontier, edges
}
RETURN pr {.*} AS project, m.role AS role, b {.*} AS branch, node, ports, names, namesRest, children, below, belowFrontier, edges
