CYPHER replan=skip
MATCH (b:Branch {id: $id})
  WHERE b.deleted_at IS NULL
SET b.lock_seq = coalesce(b.lock_seq, 0) + 1
WITH b
OPTIONAL MATCH (p:Project {id: b.project_id})
  WHERE p.deleted_at IS NULL
OPTIONAL MATCH (:User {id: $userId})-[m:MEMBER_OF]->(p)
WITH b, p, m, {line: b.id, ver: b.version + 1, main: b.main_id, base: CASE WHEN b.id = b.main_id THEN b.version + 1 ELSE coalesce(head([i IN range(0, size(coalesce(b.prior_base_until, [])) - 1) WHERE b.version + 1 < b.prior_base_until[i] | b.prior_bases[i]]), b.base_main_version) END} AS view
CALL (view) {
  CALL (view) {
    MATCH (n:GNode)
      USING INDEX SEEK n:GNode(id)
      WHERE n.id IN $asked.ids AND n.branch_id IN [view.line, view.main] AND ((n.branch_id = view.line AND n.vfrom <= view.ver AND view.ver < n.vto) OR (view.line <> view.main AND n.branch_id = view.main AND n.vfrom <= view.base AND view.base < n.vto AND NOT EXISTS {
        MATCH (shadow_n:GNode {branch_id: CASE WHEN n.branch_id <> view.line THEN view.line END, id: n.id})
          USING INDEX SEEK shadow_n:GNode(branch_id, id)
          WHERE shadow_n.vfrom <= view.ver
      }))
    RETURN n.id AS id, n.gone AS gone
    UNION
    MATCH (pt:Port)
      USING INDEX SEEK pt:Port(id)
      WHERE pt.id IN $asked.ids AND pt.branch_id IN [view.line, view.main] AND ((pt.branch_id = view.line AND pt.vfrom <= view.ver AND view.ver < pt.vto) OR (view.line <> view.main AND pt.branch_id = view.main AND pt.vfrom <= view.base AND view.base < pt.vto AND NOT EXISTS {
        MATCH (shadow_pt:Port {branch_id: CASE WHEN pt.branch_id <> view.line THEN view.line END, id: pt.id})
          USING INDEX SEEK shadow_pt:Port(branch_id, id)
          WHERE shadow_pt.vfrom <= view.ver
      }))
    RETURN pt.id AS id, pt.gone AS gone
    UNION
    MATCH (e:Edge)
      USING INDEX SEEK e:Edge(id)
      WHERE e.id IN $asked.ids AND e.branch_id IN [view.line, view.main] AND ((e.branch_id = view.line AND e.vfrom <= view.ver AND view.ver < e.vto) OR (view.line <> view.main AND e.branch_id = view.main AND e.vfrom <= view.base AND view.base < e.vto AND NOT EXISTS {
        MATCH (shadow_e:Edge {branch_id: CASE WHEN e.branch_id <> view.line THEN view.line END, id: e.id})
          USING INDEX SEEK shadow_e:Edge(branch_id, id)
          WHERE shadow_e.vfrom <= view.ver
      }))
    RETURN e.id AS id, e.gone AS gone
  }
  RETURN collect(CASE WHEN gone IS NULL THEN id END) AS usedIds, collect(CASE WHEN gone THEN id END) AS tombstoned
}
CALL (view) {
  CALL (view) {
    MATCH (pt:Port)
      USING INDEX SEEK pt:Port(id)
      WHERE pt.id IN $asked.handles AND pt.branch_id IN [view.line, view.main] AND (pt.gone IS NULL AND ((pt.branch_id = view.line AND pt.vfrom <= view.ver AND view.ver < pt.vto) OR (view.line <> view.main AND pt.branch_id = view.main AND pt.vfrom <= view.base AND view.base < pt.vto AND NOT EXISTS {
        MATCH (shadow_pt:Port {branch_id: CASE WHEN pt.branch_id <> view.line THEN view.line END, id: pt.id})
          USING INDEX SEEK shadow_pt:Port(branch_id, id)
          WHERE shadow_pt.vfrom <= view.ver
      })))
    RETURN collect(pt {.id, .channel, .node_id, .node_kind, .type}) AS found
  }
  CALL (found, view) {
    UNWIND [p IN found WHERE p.channel = 'inputs' | 'unsatisfied_input:' + p.id] AS fid
    CALL (fid, view) {
      MATCH (uf:GFinding {id: fid})
        USING INDEX SEEK uf:GFinding(branch_id, id)
        WHERE uf.branch_id IN [view.line, view.main] AND (uf.gone IS NULL AND ((uf.branch_id = view.line AND uf.vfrom <= view.ver AND view.ver < uf.vto) OR (view.line <> view.main AND uf.branch_id = view.main AND uf.vfrom <= view.base AND view.base < uf.vto AND NOT EXISTS {
          MATCH (shadow_uf:GFinding {branch_id: CASE WHEN uf.branch_id <> view.line THEN view.line END, id: uf.id})
            USING INDEX SEEK shadow_uf:GFinding(branch_id, id)
            WHERE shadow_uf.vfrom <= view.ver
        })))
      RETURN uf
    }
    RETURN collect(uf.id) AS keptInputs
  }
  CALL (found, view) {
    UNWIND found AS pt
    WITH pt
      WHERE pt.node_kind IS NULL
    OPTIONAL MATCH (owner:GNode {id: CASE WHEN pt.node_kind IS NULL THEN pt.node_id END})
      USING INDEX SEEK owner:GNode(branch_id, id)
      WHERE owner.branch_id IN [view.line, view.main] AND (owner.gone IS NULL AND ((owner.branch_id = view.line AND owner.vfrom <= view.ver AND view.ver < owner.vto) OR (view.line <> view.main AND owner.branch_id = view.main AND owner.vfrom <= view.base AND view.base < owner.vto AND NOT EXISTS {
        MATCH (shadow_owner:GNode {branch_id: CASE WHEN owner.branch_id <> view.line THEN view.line END, id: owner.id})
          USING INDEX SEEK shadow_owner:GNode(branch_id, id)
          WHERE shadow_owner.vfrom <= view.ver
      })))
    RETURN collect(pt {.*, node_id: CASE WHEN pt.node_kind IS NULL THEN owner.id ELSE pt.node_id END, node_kind: coalesce(pt.node_kind, owner.kind)}) AS ownersRead
  }
  RETURN [pt IN [p IN found WHERE p.node_kind IS NOT NULL] + ownersRead | {id: pt.id, channel: pt.channel, nodeId: pt.node_id, nodeKind: pt.node_kind, type: pt.type, unsatisfiedKept: ('unsatisfied_input:' + pt.id) IN keptInputs}] AS ports
}
CALL (view) {
  UNWIND $asked.names AS pair
  MATCH (n:GNode {scope: pair.scope, name: pair.name})
    USING INDEX SEEK n:GNode(branch_id, scope, name)
    WHERE n.branch_id IN [view.line, view.main] AND (n.gone IS NULL AND ((n.branch_id = view.line AND n.vfrom <= view.ver AND view.ver < n.vto) OR (view.line <> view.main AND n.branch_id = view.main AND n.vfrom <= view.base AND view.base < n.vto AND NOT EXISTS {
      MATCH (shadow_n:GNode {branch_id: CASE WHEN n.branch_id <> view.line THEN view.line END, id: n.id})
        USING INDEX SEEK shadow_n:GNode(branch_id, id)
        WHERE shadow_n.vfrom <= view.ver
    })))
  RETURN collect(DISTINCT pair.key) AS takenNames
}
CALL (view) {
  CALL (view) {
    WITH $asked.parentIds AS ids
    MATCH (n:GNode)
      USING INDEX SEEK n:GNode(id)
      WHERE n.id IN ids AND n.branch_id IN [view.line, view.main] AND (n.gone IS NULL AND ((n.branch_id = view.line AND n.vfrom <= view.ver AND view.ver < n.vto) OR (view.line <> view.main AND n.branch_id = view.main AND n.vfrom <= view.base AND view.base < n.vto AND NOT EXISTS {
        MATCH (shadow_n:GNode {branch_id: CASE WHEN n.branch_id <> view.line THEN view.line END, id: n.id})
          USING INDEX SEEK shadow_n:GNode(branch_id, id)
          WHERE shadow_n.vfrom <= view.ver
      })))
    RETURN collect(n {.id, .kind, .parent_id}) AS l0
  }
  CALL (l0, view) {
    UNWIND l0 AS below
    WITH collect(DISTINCT below.parent_id) AS ids
    MATCH (n:GNode)
      USING INDEX SEEK n:GNode(id)
      WHERE n.id IN ids AND n.branch_id IN [view.line, view.main] AND (n.gone IS NULL AND ((n.branch_id = view.line AND n.vfrom <= view.ver AND view.ver < n.vto) OR (view.line <> view.main AND n.branch_id = view.main AND n.vfrom <= view.base AND view.base < n.vto AND NOT EXISTS {
        MATCH (shadow_n:GNode {branch_id: CASE WHEN n.branch_id <> view.line THEN view.line END, id: n.id})
          USING INDEX SEEK shadow_n:GNode(branch_id, id)
          WHERE shadow_n.vfrom <= view.ver
      })))
    RETURN collect(n {.id, .kind, .parent_id}) AS l1
  }
  CALL (l1, view) {
    UNWIND l1 AS below
    WITH collect(DISTINCT below.parent_id) AS ids
    MATCH (n:GNode)
      USING INDEX SEEK n:GNode(id)
      WHERE n.id IN ids AND n.branch_id IN [view.line, view.main] AND (n.gone IS NULL AND ((n.branch_id = view.line AND n.vfrom <= view.ver AND view.ver < n.vto) OR (view.line <> view.main AND n.branch_id = view.main AND n.vfrom <= view.base AND view.base < n.vto AND NOT EXISTS {
        MATCH (shadow_n:GNode {branch_id: CASE WHEN n.branch_id <> view.line THEN view.line END, id: n.id})
          USING INDEX SEEK shadow_n:GNode(branch_id, id)
          WHERE shadow_n.vfrom <= view.ver
      })))
    RETURN collect(n {.id, .kind, .parent_id}) AS l2
  }
  CALL (l2, view) {
    UNWIND l2 AS below
    WITH collect(DISTINCT below.parent_id) AS ids
    MATCH (n:GNode)
      USING INDEX SEEK n:GNode(id)
      WHERE n.id IN ids AND n.branch_id IN [view.line, view.main] AND (n.gone IS NULL AND ((n.branch_id = view.line AND n.vfrom <= view.ver AND view.ver < n.vto) OR (view.line <> view.main AND n.branch_id = view.main AND n.vfrom <= view.base AND view.base < n.vto AND NOT EXISTS {
        MATCH (shadow_n:GNode {branch_id: CASE WHEN n.branch_id <> view.line THEN view.line END, id: n.id})
          USING INDEX SEEK shadow_n:GNode(branch_id, id)
          WHERE shadow_n.vfrom <= view.ver
      })))
    RETURN collect(n {.id, .kind, .parent_id}) AS l3
  }
  WITH view, l0 AS parents, l1 + l2 + l3 AS ancestors
  CALL (parents, view) {
    UNWIND [x IN parents | 'orphan_node:' + x.id] AS fid
    CALL (fid, view) {
      MATCH (of:GFinding {id: fid})
        USING INDEX SEEK of:GFinding(branch_id, id)
        WHERE of.branch_id IN [view.line, view.main] AND (of.gone IS NULL AND ((of.branch_id = view.line AND of.vfrom <= view.ver AND view.ver < of.vto) OR (view.line <> view.main AND of.branch_id = view.main AND of.vfrom <= view.base AND view.base < of.vto AND NOT EXISTS {
          MATCH (shadow_of:GFinding {branch_id: CASE WHEN of.branch_id <> view.line THEN view.line END, id: of.id})
            USING INDEX SEEK shadow_of:GFinding(branch_id, id)
            WHERE shadow_of.vfrom <= view.ver
        })))
      RETURN of
    }
    RETURN collect(of.id) AS orphanFindings
  }
  RETURN parents, ancestors, [x IN parents WHERE ('orphan_node:' + x.id) IN orphanFindings | x.id] AS orphansKept
}
CALL (view) {
  CALL (view) {
    UNWIND $asked.newPortIds AS handle
    CALL (handle, view) {
      MATCH (e:Edge {source_handle: handle})
        USING INDEX SEEK e:Edge(branch_id, source_handle)
        WHERE e.branch_id IN [view.line, view.main] AND (e.gone IS NULL AND ((e.branch_id = view.line AND e.vfrom <= view.ver AND view.ver < e.vto) OR (view.line <> view.main AND e.branch_id = view.main AND e.vfrom <= view.base AND view.base < e.vto AND NOT EXISTS {
          MATCH (shadow_e:Edge {branch_id: CASE WHEN e.branch_id <> view.line THEN view.line END, id: e.id})
            USING INDEX SEEK shadow_e:Edge(branch_id, id)
            WHERE shadow_e.vfrom <= view.ver
        })))
      RETURN e
    }
    RETURN e
    UNION
    UNWIND $asked.newPortIds AS handle
    CALL (handle, view) {
      MATCH (e:Edge {target_handle: handle})
        USING INDEX SEEK e:Edge(branch_id, target_handle)
        WHERE e.branch_id IN [view.line, view.main] AND (e.gone IS NULL AND ((e.branch_id = view.line AND e.vfrom <= view.ver AND view.ver < e.vto) OR (view.line <> view.main AND e.branch_id = view.main AND e.vfrom <= view.base AND view.base < e.vto AND NOT EXISTS {
          MATCH (shadow_e:Edge {branch_id: CASE WHEN e.branch_id <> view.line THEN view.line END, id: e.id})
            USING INDEX SEEK shadow_e:Edge(branch_id, id)
            WHERE shadow_e.vfrom <= view.ver
        })))
      RETURN e
    }
    RETURN e
  }
  CALL (e, view) {
    OPTIONAL MATCH (sp:Port {id: e.source_handle})
      USING INDEX SEEK sp:Port(branch_id, id)
      WHERE sp.branch_id IN [view.line, view.main] AND (sp.gone IS NULL AND ((sp.branch_id = view.line AND sp.vfrom <= view.ver AND view.ver < sp.vto) OR (view.line <> view.main AND sp.branch_id = view.main AND sp.vfrom <= view.base AND view.base < sp.vto AND NOT EXISTS {
        MATCH (shadow_sp:Port {branch_id: CASE WHEN sp.branch_id <> view.line THEN view.line END, id: sp.id})
          USING INDEX SEEK shadow_sp:Port(branch_id, id)
          WHERE shadow_sp.vfrom <= view.ver
      })))
    OPTIONAL MATCH (sn:GNode {id: CASE WHEN sp.node_kind IS NULL THEN sp.node_id END})
      USING INDEX SEEK sn:GNode(branch_id, id)
      WHERE sn.branch_id IN [view.line, view.main] AND (sn.gone IS NULL AND ((sn.branch_id = view.line AND sn.vfrom <= view.ver AND view.ver < sn.vto) OR (view.line <> view.main AND sn.branch_id = view.main AND sn.vfrom <= view.base AND view.base < sn.vto AND NOT EXISTS {
        MATCH (shadow_sn:GNode {branch_id: CASE WHEN sn.branch_id <> view.line THEN view.line END, id: sn.id})
          USING INDEX SEEK shadow_sn:GNode(branch_id, id)
          WHERE shadow_sn.vfrom <= view.ver
      })))
    OPTIONAL MATCH (tp:Port {id: e.target_handle})
      USING INDEX SEEK tp:Port(branch_id, id)
      WHERE tp.branch_id IN [view.line, view.main] AND (tp.gone IS NULL AND ((tp.branch_id = view.line AND tp.vfrom <= view.ver AND view.ver < tp.vto) OR (view.line <> view.main AND tp.branch_id = view.main AND tp.vfrom <= view.base AND view.base < tp.vto AND NOT EXISTS {
        MATCH (shadow_tp:Port {branch_id: CASE WHEN tp.branch_id <> view.line THEN view.line END, id: tp.id})
          USING INDEX SEEK shadow_tp:Port(branch_id, id)
          WHERE shadow_tp.vfrom <= view.ver
      })))
    OPTIONAL MATCH (tn:GNode {id: CASE WHEN tp.node_kind IS NULL THEN tp.node_id END})
      USING INDEX SEEK tn:GNode(branch_id, id)
      WHERE tn.branch_id IN [view.line, view.main] AND (tn.gone IS NULL AND ((tn.branch_id = view.line AND tn.vfrom <= view.ver AND view.ver < tn.vto) OR (view.line <> view.main AND tn.branch_id = view.main AND tn.vfrom <= view.base AND view.base < tn.vto AND NOT EXISTS {
        MATCH (shadow_tn:GNode {branch_id: CASE WHEN tn.branch_id <> view.line THEN view.line END, id: tn.id})
          USING INDEX SEEK shadow_tn:GNode(branch_id, id)
          WHERE shadow_tn.vfrom <= view.ver
      })))
    RETURN sp, sn, tp, tn
  }
  WITH {id: e.id, source: e.source_handle, target: e.target_handle, sourceChannel: sp.channel, sourceKind: coalesce(sp.node_kind, sn.kind), targetChannel: tp.channel, targetKind: coalesce(tp.node_kind, tn.kind)} AS wire
  RETURN collect(wire) AS wires
}
CALL (view) {
  OPTIONAL MATCH (kb:Branch {id: view.line})
  OPTIONAL MATCH (km:Branch {id: view.main})
  RETURN (coalesce(kb.findings_from <= view.ver, false) AND (view.line = view.main OR coalesce(km.findings_from <= view.base, false))) AS findingsKept
}
CALL (view, b, tombstoned) {
  WITH view, tombstoned
    WHERE $write AND b.owner_id = $userId AND NOT b.is_main AND b.status = 'active' AND b.version = $expectedVersion
  CALL (view, tombstoned) {
    CALL (view, tombstoned) {
      UNWIND [r IN $nodes WHERE r.id IN tombstoned] AS open
      MATCH (cur:GNode {branch_id: view.line, id: open.id})
        USING INDEX SEEK cur:GNode(branch_id, id)
        WHERE cur.vto = 9007199254740991
      SET cur.vto = toInteger(view.ver)
    }
    UNWIND $nodes AS row
    WITH view, row.id AS id, row.props AS props
    CREATE (n:GNode)
    SET n = props {.*, branch_id: view.line, id: id, vfrom: toInteger(view.ver), vto: 9007199254740991}
    RETURN count(*) AS nodesWritten
  }
  CALL (view, tombstoned) {
    CALL (view, tombstoned) {
      UNWIND [r IN $ports WHERE r.id IN tombstoned] AS open
      MATCH (cur:Port {branch_id: view.line, id: open.id})
        USING INDEX SEEK cur:Port(branch_id, id)
        WHERE cur.vto = 9007199254740991
      SET cur.vto = toInteger(view.ver)
    }
    UNWIND $ports AS row
    WITH view, row.id AS id, row.props AS props
    CREATE (n:Port)
    SET n = props {.*, branch_id: view.line, id: id, vfrom: toInteger(view.ver), vto: 9007199254740991}
    RETURN count(*) AS portsWritten
  }
  CALL (view, tombstoned) {
    CALL (view, tombstoned) {
      UNWIND [r IN $edges WHERE r.id IN tombstoned] AS open
      MATCH (cur:Edge {branch_id: view.line, id: open.id})
        USING INDEX SEEK cur:Edge(branch_id, id)
        WHERE cur.vto = 9007199254740991
      SET cur.vto = toInteger(view.ver)
    }
    UNWIND $edges AS row
    WITH view, row.id AS id, row.props AS props
    CREATE (n:Edge)
    SET n = props {.*, branch_id: view.line, id: id, vfrom: toInteger(view.ver), vto: 9007199254740991}
    RETURN count(*) AS edgesWritten
  }
  RETURN count(*) AS prewritten
}
WITH *, b {.*} AS branch
CALL (view, b, ports, orphansKept, wires, findingsKept, prewritten) {
  WITH view, b, ports, orphansKept, findingsKept
    WHERE prewritten > 0 AND $record.publish AND size(wires) = 0 AND b.node_count IS NOT NULL AND b.edge_count IS NOT NULL
  WITH view, b, findingsKept, orphansKept, [f IN ports | f.id] AS found, [f IN ports WHERE f.type IS NULL | f.id] AS untyped, [f IN ports WHERE f.type IS NOT NULL | [f.id, f.type]] AS typed, [f IN ports WHERE f.unsatisfiedKept | f.id] AS unsatisfiedKept
    WHERE all(need IN $record.ends WHERE need.port IN found AND (need.type IS NULL OR need.port IN untyped OR [need.port, need.type] IN typed))
  WITH view, b, [o IN $record.opened WHERE findingsKept AND (o.parent IS NULL OR o.parent IN orphansKept) | o.row] AS opened, [k IN $record.closed WHERE findingsKept AND k.port IN unsatisfiedKept | k.id] AS closed
  CALL (view, opened) {
    CALL (view, opened) {
      UNWIND opened AS open
      MATCH (cur:GFinding {branch_id: view.line, id: open.id})
        USING INDEX SEEK cur:GFinding(branch_id, id)
        WHERE cur.vto = 9007199254740991
      SET cur.vto = toInteger(view.ver)
    }
    UNWIND opened AS row
    WITH view, row.id AS id, row.props AS props
    CREATE (n:GFinding)
    SET n = props {.*, branch_id: view.line, id: id, vfrom: toInteger(view.ver), vto: 9007199254740991}
    RETURN count(*) AS openedCount
  }
  CALL (view, closed) {
    UNWIND closed AS id
    OPTIONAL MATCH (cur:GFinding {branch_id: view.line, id: id})
      USING INDEX SEEK cur:GFinding(branch_id, id)
      WHERE cur.vto = 9007199254740991
    WITH id, cur, view.line = view.main AS onMain, cur IS NOT NULL AND cur.vfrom = view.ver AS sameVersion, cur IS NOT NULL AND cur.vfrom < view.ver AS older
    CALL (cur, older, view) {
      WITH cur
        WHERE older
      SET cur.vto = toInteger(view.ver)
    }
    CALL (cur, onMain, sameVersion, id, view) {
      WITH cur, id
        WHERE NOT onMain AND sameVersion
      SET cur = {branch_id: view.line, id: id, vfrom: toInteger(view.ver), vto: 9007199254740991, gone: true}
    }
    CALL (cur, onMain, id, view) {
      WITH id
        WHERE NOT onMain AND cur IS NULL
      CREATE (:GFinding {branch_id: view.line, id: id, vfrom: toInteger(view.ver), vto: 9007199254740991, gone: true})
    }
    // last, and decided before any subquery runs: nothing reads a record deleted here
    CALL (cur, onMain, sameVersion) {
      WITH cur
        WHERE onMain AND sameVersion
      DELETE cur
    }
    RETURN count(id) AS removed
  }
  SET b.version = b.version + 1, b.last_active_at = $now, b.node_count = b.node_count + $record.nodes, b.edge_count = b.edge_count + $record.edges, b.stored_bytes = coalesce(b.stored_bytes, 0) + $change.deltas_bytes
  CREATE (c:Change {branch_id: b.id, version: b.version})
  SET c += $change, c.deltas_bytes = toInteger(c.deltas_bytes), c.positions_applied = toInteger(c.positions_applied), c.reverted_version = toInteger(c.reverted_version),
    c.rebase_base = toInteger(c.rebase_base),
    c.rebase_previous_base = toInteger(c.rebase_previous_base)
  FOREACH (t IN $touches | CREATE (:Touch {branch_id: b.id, version: b.version, key: t.key, entity: t.entity, entity_id: t.id, action: t.action, fields: t.fields, ports: t.ports, wires: t.wires}))
  RETURN head(collect({version: b.version, opened: [r IN opened | r.id], closed: closed})) AS recorded
}
RETURN usedIds, ports, takenNames, parents, ancestors, orphansKept, wires, findingsKept, view AS view, branch, p {.*} AS project, m.role AS role, prewritten > 0 AS prewritten, recorded
