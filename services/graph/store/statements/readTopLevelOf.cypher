CYPHER replan=skip
MATCH (b:Branch {id: $branchId})
  WHERE b.deleted_at IS NULL
WITH b
OPTIONAL MATCH (p:Project {id: b.project_id})
  WHERE p.deleted_at IS NULL
OPTIONAL MATCH (:User {id: $userId})-[m:MEMBER_OF]->(p)
WITH b, p, m, {line: b.id, ver: coalesce(toInteger($at.version), b.version), main: b.main_id, base: CASE WHEN b.id = b.main_id THEN coalesce(toInteger($at.version), b.version) ELSE coalesce(head([i IN range(0, size(coalesce(b.prior_base_until, [])) - 1) WHERE coalesce(toInteger($at.version), b.version) < b.prior_base_until[i] | b.prior_bases[i]]), b.base_main_version) END, head: CASE WHEN $at.version IS NULL OR toInteger($at.version) = b.version THEN null ELSE {line: b.id, ver: b.version, main: b.main_id, base: CASE WHEN b.id = b.main_id THEN b.version ELSE coalesce(head([i IN range(0, size(coalesce(b.prior_base_until, [])) - 1) WHERE b.version < b.prior_base_until[i] | b.prior_bases[i]]), b.base_main_version) END} END} AS view OPTIONAL CALL (b, view) {
  CALL (b, view) {
    MATCH (n:GNode {scope: ''})
      WHERE n.branch_id IN [view.line, view.main] AND (n.gone IS NULL AND ((n.branch_id = view.line AND n.vfrom <= view.ver AND view.ver < n.vto) OR (view.line <> view.main AND n.branch_id = view.main AND n.vfrom <= view.base AND view.base < n.vto AND NOT EXISTS {
        MATCH (shadow_n:GNode {branch_id: CASE WHEN n.branch_id <> view.line THEN view.line END, id: n.id})
          USING INDEX SEEK shadow_n:GNode(branch_id, id)
          WHERE shadow_n.vfrom <= view.ver
      }))) AND n.name IS NOT NULL AND b.status <> 'discarded'
    WITH n, view
      ORDER BY n.id
    RETURN collect({node: CASE WHEN view.head IS NULL OR (n.branch_id = view.head.line AND view.head.ver < n.vto) THEN n {.*} ELSE coalesce(head(COLLECT {
      MATCH (hp:GNode {id: n.id})
        USING INDEX SEEK hp:GNode(branch_id, id)
        WHERE hp.branch_id IN [view.head.line, view.head.main] AND (hp.gone IS NULL AND ((hp.branch_id = view.head.line AND hp.vfrom <= view.head.ver AND view.head.ver < hp.vto) OR (view.head.line <> view.head.main AND hp.branch_id = view.head.main AND hp.vfrom <= view.head.base AND view.head.base < hp.vto AND NOT EXISTS {
          MATCH (shadow_hp:GNode {branch_id: CASE WHEN hp.branch_id <> view.head.line THEN view.head.line END, id: hp.id})
            USING INDEX SEEK shadow_hp:GNode(branch_id, id)
            WHERE shadow_hp.vfrom <= view.head.ver
        })))
      RETURN n {.*, x: hp.x, y: hp.y} AS atHead
    }), n {.*}) END, ports: COLLECT {
      MATCH (pt:Port {node_id: n.id})
        USING INDEX SEEK pt:Port(branch_id, node_id)
        WHERE pt.branch_id IN [view.line, view.main] AND (pt.gone IS NULL AND ((pt.branch_id = view.line AND pt.vfrom <= view.ver AND view.ver < pt.vto) OR (view.line <> view.main AND pt.branch_id = view.main AND pt.vfrom <= view.base AND view.base < pt.vto AND NOT EXISTS {
          MATCH (shadow_pt:Port {branch_id: CASE WHEN pt.branch_id <> view.line THEN view.line END, id: pt.id})
            USING INDEX SEEK shadow_pt:Port(branch_id, id)
            WHERE shadow_pt.vfrom <= view.ver
        })))
      RETURN pt {.*}
    }}) AS top
  }
  WITH top, [t IN top | t.node.id] AS ids, view
  CALL (ids, view) {
    UNWIND ids AS id
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
    WITH e, count(*) AS inside, view
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
  RETURN top, edges
}
RETURN b {.*} AS branch, p {.*} AS project, m.role AS role, top, edges
