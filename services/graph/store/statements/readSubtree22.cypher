MATCH (b:Branch {id: $branchId})
  WHERE b.deleted_at IS NULL
WITH b
OPTIONAL MATCH (p:Project {id: b.project_id})
  WHERE p.deleted_at IS NULL
OPTIONAL MATCH (:User {id: $userId})-[m:MEMBER_OF]->(p)
WITH b, p, m, {line: b.id, ver: coalesce(toInteger($at.version), b.version), main: b.main_id, base: CASE WHEN b.id = b.main_id THEN coalesce(toInteger($at.version), b.version) ELSE coalesce(head([i IN range(0, size(coalesce(b.prior_base_until, [])) - 1) WHERE coalesce(toInteger($at.version), b.version) < b.prior_base_until[i] | b.prior_bases[i]]), b.base_main_version) END, head: CASE WHEN $at.version IS NULL OR toInteger($at.version) = b.version THEN null ELSE {line: b.id, ver: b.version, main: b.main_id, base: CASE WHEN b.id = b.main_id THEN b.version ELSE coalesce(head([i IN range(0, size(coalesce(b.prior_base_until, [])) - 1) WHERE b.version < b.prior_base_until[i] | b.prior_bases[i]]), b.base_main_version) END} END} AS view OPTIONAL CALL (b, view) {
  MATCH (root:GNode {id: $nodeId})
    USING INDEX SEEK root:GNode(branch_id, id)
    WHERE root.branch_id IN [view.line, view.main] AND (root.gone IS NULL AND ((root.branch_id = view.line AND root.vfrom <= view.ver AND view.ver < root.vto) OR (view.line <> view.main AND root.branch_id = view.main AND root.vfrom <= view.base AND view.base < root.vto AND NOT EXISTS {
      MATCH (shadow_root:GNode {branch_id: CASE WHEN root.branch_id <> view.line THEN view.line END, id: root.id})
        USING INDEX SEEK shadow_root:GNode(branch_id, id)
        WHERE shadow_root.vfrom <= view.ver
    }))) AND b.status <> 'discarded'
  CALL (root, view) {
    OPTIONAL MATCH (a1:GNode {id: root.parent_id})
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
    RETURN reverse([x IN [root, a1, a2, a3, a4, a5, a6, a7, a8] WHERE x IS NOT NULL | x.name]) AS rootNames, a8.parent_id AS rootNamesRest
  }
  CALL (root, view) {
    WITH [{n: root, names: [], level: 0}] AS f0, view
    CALL (f0, view) {
      UNWIND f0 AS x
      MATCH (c:GNode {parent_id: x.n.id})
        USING INDEX SEEK c:GNode(branch_id, parent_id)
        WHERE c.branch_id IN [view.line, view.main] AND (c.gone IS NULL AND ((c.branch_id = view.line AND c.vfrom <= view.ver AND view.ver < c.vto) OR (view.line <> view.main AND c.branch_id = view.main AND c.vfrom <= view.base AND view.base < c.vto AND NOT EXISTS {
          MATCH (shadow_c:GNode {branch_id: CASE WHEN c.branch_id <> view.line THEN view.line END, id: c.id})
            USING INDEX SEEK shadow_c:GNode(branch_id, id)
            WHERE shadow_c.vfrom <= view.ver
        })))
      RETURN collect({n: c, names: x.names + c.name, level: 1}) AS f1
    }
    CALL (f1, view) {
      UNWIND f1 AS x
      MATCH (c:GNode {parent_id: x.n.id})
        USING INDEX SEEK c:GNode(branch_id, parent_id)
        WHERE c.branch_id IN [view.line, view.main] AND (c.gone IS NULL AND ((c.branch_id = view.line AND c.vfrom <= view.ver AND view.ver < c.vto) OR (view.line <> view.main AND c.branch_id = view.main AND c.vfrom <= view.base AND view.base < c.vto AND NOT EXISTS {
          MATCH (shadow_c:GNode {branch_id: CASE WHEN c.branch_id <> view.line THEN view.line END, id: c.id})
            USING INDEX SEEK shadow_c:GNode(branch_id, id)
            WHERE shadow_c.vfrom <= view.ver
        })))
      RETURN collect({n: c, names: x.names + c.name, level: 2}) AS f2
    }
    CALL (f2, view) {
      UNWIND f2 AS x
      MATCH (c:GNode {parent_id: x.n.id})
        USING INDEX SEEK c:GNode(branch_id, parent_id)
        WHERE c.branch_id IN [view.line, view.main] AND (c.gone IS NULL AND ((c.branch_id = view.line AND c.vfrom <= view.ver AND view.ver < c.vto) OR (view.line <> view.main AND c.branch_id = view.main AND c.vfrom <= view.base AND view.base < c.vto AND NOT EXISTS {
          MATCH (shadow_c:GNode {branch_id: CASE WHEN c.branch_id <> view.line THEN view.line END, id: c.id})
            USING INDEX SEEK shadow_c:GNode(branch_id, id)
            WHERE shadow_c.vfrom <= view.ver
        })))
      RETURN collect({n: c, names: x.names + c.name, level: 3}) AS f3
    }
    CALL (f3, view) {
      UNWIND f3 AS x
      MATCH (c:GNode {parent_id: x.n.id})
        USING INDEX SEEK c:GNode(branch_id, parent_id)
        WHERE c.branch_id IN [view.line, view.main] AND (c.gone IS NULL AND ((c.branch_id = view.line AND c.vfrom <= view.ver AND view.ver < c.vto) OR (view.line <> view.main AND c.branch_id = view.main AND c.vfrom <= view.base AND view.base < c.vto AND NOT EXISTS {
          MATCH (shadow_c:GNode {branch_id: CASE WHEN c.branch_id <> view.line THEN view.line END, id: c.id})
            USING INDEX SEEK shadow_c:GNode(branch_id, id)
            WHERE shadow_c.vfrom <= view.ver
        })))
      RETURN collect({n: c, names: x.names + c.name, level: 4}) AS f4
    }
    CALL (f4, view) {
      UNWIND f4 AS x
      MATCH (c:GNode {parent_id: x.n.id})
        USING INDEX SEEK c:GNode(branch_id, parent_id)
        WHERE c.branch_id IN [view.line, view.main] AND (c.gone IS NULL AND ((c.branch_id = view.line AND c.vfrom <= view.ver AND view.ver < c.vto) OR (view.line <> view.main AND c.branch_id = view.main AND c.vfrom <= view.base AND view.base < c.vto AND NOT EXISTS {
          MATCH (shadow_c:GNode {branch_id: CASE WHEN c.branch_id <> view.line THEN view.line END, id: c.id})
            USING INDEX SEEK shadow_c:GNode(branch_id, id)
            WHERE shadow_c.vfrom <= view.ver
        })))
      RETURN collect({n: c, names: x.names + c.name, level: 5}) AS f5
    }
    CALL (f5, view) {
      UNWIND f5 AS x
      MATCH (c:GNode {parent_id: x.n.id})
        USING INDEX SEEK c:GNode(branch_id, parent_id)
        WHERE c.branch_id IN [view.line, view.main] AND (c.gone IS NULL AND ((c.branch_id = view.line AND c.vfrom <= view.ver AND view.ver < c.vto) OR (view.line <> view.main AND c.branch_id = view.main AND c.vfrom <= view.base AND view.base < c.vto AND NOT EXISTS {
          MATCH (shadow_c:GNode {branch_id: CASE WHEN c.branch_id <> view.line THEN view.line END, id: c.id})
            USING INDEX SEEK shadow_c:GNode(branch_id, id)
            WHERE shadow_c.vfrom <= view.ver
        })))
      RETURN collect({n: c, names: x.names + c.name, level: 6}) AS f6
    }
    CALL (f6, view) {
      UNWIND f6 AS x
      MATCH (c:GNode {parent_id: x.n.id})
        USING INDEX SEEK c:GNode(branch_id, parent_id)
        WHERE c.branch_id IN [view.line, view.main] AND (c.gone IS NULL AND ((c.branch_id = view.line AND c.vfrom <= view.ver AND view.ver < c.vto) OR (view.line <> view.main AND c.branch_id = view.main AND c.vfrom <= view.base AND view.base < c.vto AND NOT EXISTS {
          MATCH (shadow_c:GNode {branch_id: CASE WHEN c.branch_id <> view.line THEN view.line END, id: c.id})
            USING INDEX SEEK shadow_c:GNode(branch_id, id)
            WHERE shadow_c.vfrom <= view.ver
        })))
      RETURN collect({n: c, names: x.names + c.name, level: 7}) AS f7
    }
    CALL (f7, view) {
      UNWIND f7 AS x
      MATCH (c:GNode {parent_id: x.n.id})
        USING INDEX SEEK c:GNode(branch_id, parent_id)
        WHERE c.branch_id IN [view.line, view.main] AND (c.gone IS NULL AND ((c.branch_id = view.line AND c.vfrom <= view.ver AND view.ver < c.vto) OR (view.line <> view.main AND c.branch_id = view.main AND c.vfrom <= view.base AND view.base < c.vto AND NOT EXISTS {
          MATCH (shadow_c:GNode {branch_id: CASE WHEN c.branch_id <> view.line THEN view.line END, id: c.id})
            USING INDEX SEEK shadow_c:GNode(branch_id, id)
            WHERE shadow_c.vfrom <= view.ver
        })))
      RETURN collect({n: c, names: x.names + c.name, level: 8}) AS f8
    }
    CALL (f8, view) {
      UNWIND f8 AS x
      MATCH (c:GNode {parent_id: x.n.id})
        USING INDEX SEEK c:GNode(branch_id, parent_id)
        WHERE c.branch_id IN [view.line, view.main] AND (c.gone IS NULL AND ((c.branch_id = view.line AND c.vfrom <= view.ver AND view.ver < c.vto) OR (view.line <> view.main AND c.branch_id = view.main AND c.vfrom <= view.base AND view.base < c.vto AND NOT EXISTS {
          MATCH (shadow_c:GNode {branch_id: CASE WHEN c.branch_id <> view.line THEN view.line END, id: c.id})
            USING INDEX SEEK shadow_c:GNode(branch_id, id)
            WHERE shadow_c.vfrom <= view.ver
        })))
      RETURN collect({n: c, names: x.names + c.name, level: 9}) AS f9
    }
    CALL (f9, view) {
      UNWIND f9 AS x
      MATCH (c:GNode {parent_id: x.n.id})
        USING INDEX SEEK c:GNode(branch_id, parent_id)
        WHERE c.branch_id IN [view.line, view.main] AND (c.gone IS NULL AND ((c.branch_id = view.line AND c.vfrom <= view.ver AND view.ver < c.vto) OR (view.line <> view.main AND c.branch_id = view.main AND c.vfrom <= view.base AND view.base < c.vto AND NOT EXISTS {
          MATCH (shadow_c:GNode {branch_id: CASE WHEN c.branch_id <> view.line THEN view.line END, id: c.id})
            USING INDEX SEEK shadow_c:GNode(branch_id, id)
            WHERE shadow_c.vfrom <= view.ver
        })))
      RETURN collect({n: c, names: x.names + c.name, level: 10}) AS f10
    }
    CALL (f10, view) {
      UNWIND f10 AS x
      MATCH (c:GNode {parent_id: x.n.id})
        USING INDEX SEEK c:GNode(branch_id, parent_id)
        WHERE c.branch_id IN [view.line, view.main] AND (c.gone IS NULL AND ((c.branch_id = view.line AND c.vfrom <= view.ver AND view.ver < c.vto) OR (view.line <> view.main AND c.branch_id = view.main AND c.vfrom <= view.base AND view.base < c.vto AND NOT EXISTS {
          MATCH (shadow_c:GNode {branch_id: CASE WHEN c.branch_id <> view.line THEN view.line END, id: c.id})
            USING INDEX SEEK shadow_c:GNode(branch_id, id)
            WHERE shadow_c.vfrom <= view.ver
        })))
      RETURN collect({n: c, names: x.names + c.name, level: 11}) AS f11
    }
    CALL (f11, view) {
      UNWIND f11 AS x
      MATCH (c:GNode {parent_id: x.n.id})
        USING INDEX SEEK c:GNode(branch_id, parent_id)
        WHERE c.branch_id IN [view.line, view.main] AND (c.gone IS NULL AND ((c.branch_id = view.line AND c.vfrom <= view.ver AND view.ver < c.vto) OR (view.line <> view.main AND c.branch_id = view.main AND c.vfrom <= view.base AND view.base < c.vto AND NOT EXISTS {
          MATCH (shadow_c:GNode {branch_id: CASE WHEN c.branch_id <> view.line THEN view.line END, id: c.id})
            USING INDEX SEEK shadow_c:GNode(branch_id, id)
            WHERE shadow_c.vfrom <= view.ver
        })))
      RETURN collect({n: c, names: x.names + c.name, level: 12}) AS f12
    }
    CALL (f12, view) {
      UNWIND f12 AS x
      MATCH (c:GNode {parent_id: x.n.id})
        USING INDEX SEEK c:GNode(branch_id, parent_id)
        WHERE c.branch_id IN [view.line, view.main] AND (c.gone IS NULL AND ((c.branch_id = view.line AND c.vfrom <= view.ver AND view.ver < c.vto) OR (view.line <> view.main AND c.branch_id = view.main AND c.vfrom <= view.base AND view.base < c.vto AND NOT EXISTS {
          MATCH (shadow_c:GNode {branch_id: CASE WHEN c.branch_id <> view.line THEN view.line END, id: c.id})
            USING INDEX SEEK shadow_c:GNode(branch_id, id)
            WHERE shadow_c.vfrom <= view.ver
        })))
      RETURN collect({n: c, names: x.names + c.name, level: 13}) AS f13
    }
    CALL (f13, view) {
      UNWIND f13 AS x
      MATCH (c:GNode {parent_id: x.n.id})
        USING INDEX SEEK c:GNode(branch_id, parent_id)
        WHERE c.branch_id IN [view.line, view.main] AND (c.gone IS NULL AND ((c.branch_id = view.line AND c.vfrom <= view.ver AND view.ver < c.vto) OR (view.line <> view.main AND c.branch_id = view.main AND c.vfrom <= view.base AND view.base < c.vto AND NOT EXISTS {
          MATCH (shadow_c:GNode {branch_id: CASE WHEN c.branch_id <> view.line THEN view.line END, id: c.id})
            USING INDEX SEEK shadow_c:GNode(branch_id, id)
            WHERE shadow_c.vfrom <= view.ver
        })))
      RETURN collect({n: c, names: x.names + c.name, level: 14}) AS f14
    }
    CALL (f14, view) {
      UNWIND f14 AS x
      MATCH (c:GNode {parent_id: x.n.id})
        USING INDEX SEEK c:GNode(branch_id, parent_id)
        WHERE c.branch_id IN [view.line, view.main] AND (c.gone IS NULL AND ((c.branch_id = view.line AND c.vfrom <= view.ver AND view.ver < c.vto) OR (view.line <> view.main AND c.branch_id = view.main AND c.vfrom <= view.base AND view.base < c.vto AND NOT EXISTS {
          MATCH (shadow_c:GNode {branch_id: CASE WHEN c.branch_id <> view.line THEN view.line END, id: c.id})
            USING INDEX SEEK shadow_c:GNode(branch_id, id)
            WHERE shadow_c.vfrom <= view.ver
        })))
      RETURN collect({n: c, names: x.names + c.name, level: 15}) AS f15
    }
    CALL (f15, view) {
      UNWIND f15 AS x
      MATCH (c:GNode {parent_id: x.n.id})
        USING INDEX SEEK c:GNode(branch_id, parent_id)
        WHERE c.branch_id IN [view.line, view.main] AND (c.gone IS NULL AND ((c.branch_id = view.line AND c.vfrom <= view.ver AND view.ver < c.vto) OR (view.line <> view.main AND c.branch_id = view.main AND c.vfrom <= view.base AND view.base < c.vto AND NOT EXISTS {
          MATCH (shadow_c:GNode {branch_id: CASE WHEN c.branch_id <> view.line THEN view.line END, id: c.id})
            USING INDEX SEEK shadow_c:GNode(branch_id, id)
            WHERE shadow_c.vfrom <= view.ver
        })))
      RETURN collect({n: c, names: x.names + c.name, level: 16}) AS f16
    }
    CALL (f16, view) {
      UNWIND f16 AS x
      MATCH (c:GNode {parent_id: x.n.id})
        USING INDEX SEEK c:GNode(branch_id, parent_id)
        WHERE c.branch_id IN [view.line, view.main] AND (c.gone IS NULL AND ((c.branch_id = view.line AND c.vfrom <= view.ver AND view.ver < c.vto) OR (view.line <> view.main AND c.branch_id = view.main AND c.vfrom <= view.base AND view.base < c.vto AND NOT EXISTS {
          MATCH (shadow_c:GNode {branch_id: CASE WHEN c.branch_id <> view.line THEN view.line END, id: c.id})
            USING INDEX SEEK shadow_c:GNode(branch_id, id)
            WHERE shadow_c.vfrom <= view.ver
        })))
      RETURN collect({n: c, names: x.names + c.name, level: 17}) AS f17
    }
    CALL (f17, view) {
      UNWIND f17 AS x
      MATCH (c:GNode {parent_id: x.n.id})
        USING INDEX SEEK c:GNode(branch_id, parent_id)
        WHERE c.branch_id IN [view.line, view.main] AND (c.gone IS NULL AND ((c.branch_id = view.line AND c.vfrom <= view.ver AND view.ver < c.vto) OR (view.line <> view.main AND c.branch_id = view.main AND c.vfrom <= view.base AND view.base < c.vto AND NOT EXISTS {
          MATCH (shadow_c:GNode {branch_id: CASE WHEN c.branch_id <> view.line THEN view.line END, id: c.id})
            USING INDEX SEEK shadow_c:GNode(branch_id, id)
            WHERE shadow_c.vfrom <= view.ver
        })))
      RETURN collect({n: c, names: x.names + c.name, level: 18}) AS f18
    }
    CALL (f18, view) {
      UNWIND f18 AS x
      MATCH (c:GNode {parent_id: x.n.id})
        USING INDEX SEEK c:GNode(branch_id, parent_id)
        WHERE c.branch_id IN [view.line, view.main] AND (c.gone IS NULL AND ((c.branch_id = view.line AND c.vfrom <= view.ver AND view.ver < c.vto) OR (view.line <> view.main AND c.branch_id = view.main AND c.vfrom <= view.base AND view.base < c.vto AND NOT EXISTS {
          MATCH (shadow_c:GNode {branch_id: CASE WHEN c.branch_id <> view.line THEN view.line END, id: c.id})
            USING INDEX SEEK shadow_c:GNode(branch_id, id)
            WHERE shadow_c.vfrom <= view.ver
        })))
      RETURN collect({n: c, names: x.names + c.name, level: 19}) AS f19
    }
    CALL (f19, view) {
      UNWIND f19 AS x
      MATCH (c:GNode {parent_id: x.n.id})
        USING INDEX SEEK c:GNode(branch_id, parent_id)
        WHERE c.branch_id IN [view.line, view.main] AND (c.gone IS NULL AND ((c.branch_id = view.line AND c.vfrom <= view.ver AND view.ver < c.vto) OR (view.line <> view.main AND c.branch_id = view.main AND c.vfrom <= view.base AND view.base < c.vto AND NOT EXISTS {
          MATCH (shadow_c:GNode {branch_id: CASE WHEN c.branch_id <> view.line THEN view.line END, id: c.id})
            USING INDEX SEEK shadow_c:GNode(branch_id, id)
            WHERE shadow_c.vfrom <= view.ver
        })))
      RETURN collect({n: c, names: x.names + c.name, level: 20}) AS f20
    }
    CALL (f20, view) {
      UNWIND f20 AS x
      MATCH (c:GNode {parent_id: x.n.id})
        USING INDEX SEEK c:GNode(branch_id, parent_id)
        WHERE c.branch_id IN [view.line, view.main] AND (c.gone IS NULL AND ((c.branch_id = view.line AND c.vfrom <= view.ver AND view.ver < c.vto) OR (view.line <> view.main AND c.branch_id = view.main AND c.vfrom <= view.base AND view.base < c.vto AND NOT EXISTS {
          MATCH (shadow_c:GNode {branch_id: CASE WHEN c.branch_id <> view.line THEN view.line END, id: c.id})
            USING INDEX SEEK shadow_c:GNode(branch_id, id)
            WHERE shadow_c.vfrom <= view.ver
        })))
      RETURN collect({n: c, names: x.names + c.name, level: 21}) AS f21
    }
    CALL (f21, view) {
      UNWIND f21 AS x
      MATCH (c:GNode {parent_id: x.n.id})
        USING INDEX SEEK c:GNode(branch_id, parent_id)
        WHERE c.branch_id IN [view.line, view.main] AND (c.gone IS NULL AND ((c.branch_id = view.line AND c.vfrom <= view.ver AND view.ver < c.vto) OR (view.line <> view.main AND c.branch_id = view.main AND c.vfrom <= view.base AND view.base < c.vto AND NOT EXISTS {
          MATCH (shadow_c:GNode {branch_id: CASE WHEN c.branch_id <> view.line THEN view.line END, id: c.id})
            USING INDEX SEEK shadow_c:GNode(branch_id, id)
            WHERE shadow_c.vfrom <= view.ver
        })))
      RETURN collect({n: c, names: x.names + c.name, level: 22}) AS f22
    }
    RETURN f1 + f2 + f3 + f4 + f5 + f6 + f7 + f8 + f9 + f10 + f11 + f12 + f13 + f14 + f15 + f16 + f17 + f18 + f19 + f20 + f21 + f22 AS found
  }
  CALL (found, view) {
    UNWIND found AS x
    WITH x.n AS n, x.names AS names, x.level AS level, view
    RETURN collect({ node: CASE WHEN view.head IS NULL OR (n.branch_id = view.head.line AND view.head.ver < n.vto) THEN n {.*} ELSE coalesce(head(COLLECT {
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
    }, names: names, below: level = 22 AND EXISTS {
      MATCH (ch:GNode {parent_id: n.id})
        USING INDEX SEEK ch:GNode(branch_id, parent_id)
        WHERE ch.branch_id IN [view.line, view.main] AND (ch.gone IS NULL AND ((ch.branch_id = view.line AND ch.vfrom <= view.ver AND view.ver < ch.vto) OR (view.line <> view.main AND ch.branch_id = view.main AND ch.vfrom <= view.base AND view.base < ch.vto AND NOT EXISTS {
          MATCH (shadow_ch:GNode {branch_id: CASE WHEN ch.branch_id <> view.line THEN view.line END, id: ch.id})
            USING INDEX SEEK shadow_ch:GNode(branch_id, id)
            WHERE shadow_ch.vfrom <= view.ver
        })))
    } }) AS descendants
  }
  WITH root, rootNames, rootNamesRest, descendants, view, COLLECT {
    MATCH (pt:Port {node_id: root.id})
      USING INDEX SEEK pt:Port(branch_id, node_id)
      WHERE pt.branch_id IN [view.line, view.main] AND (pt.gone IS NULL AND ((pt.branch_id = view.line AND pt.vfrom <= view.ver AND view.ver < pt.vto) OR (view.line <> view.main AND pt.branch_id = view.main AND pt.vfrom <= view.base AND view.base < pt.vto AND NOT EXISTS {
        MATCH (shadow_pt:Port {branch_id: CASE WHEN pt.branch_id <> view.line THEN view.line END, id: pt.id})
          USING INDEX SEEK shadow_pt:Port(branch_id, id)
          WHERE shadow_pt.vfrom <= view.ver
      })))
    RETURN pt {.*}
  } AS rootPorts
  CALL (rootPorts, descendants, view) {
    UNWIND [{ports: rootPorts}] + descendants AS d
    UNWIND d.ports AS p
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
    OPTIONAL MATCH (sp:Port {id: CASE WHEN inside = 1 THEN e.source_handle END})
      USING INDEX SEEK sp:Port(branch_id, id)
      WHERE sp.branch_id IN [view.line, view.main] AND (sp.gone IS NULL AND ((sp.branch_id = view.line AND sp.vfrom <= view.ver AND view.ver < sp.vto) OR (view.line <> view.main AND sp.branch_id = view.main AND sp.vfrom <= view.base AND view.base < sp.vto AND NOT EXISTS {
        MATCH (shadow_sp:Port {branch_id: CASE WHEN sp.branch_id <> view.line THEN view.line END, id: sp.id})
          USING INDEX SEEK shadow_sp:Port(branch_id, id)
          WHERE shadow_sp.vfrom <= view.ver
      })))
    OPTIONAL MATCH (tp:Port {id: CASE WHEN inside = 1 THEN e.target_handle END})
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
  RETURN CASE WHEN view.head IS NULL OR (root.branch_id = view.head.line AND view.head.ver < root.vto) THEN root {.*} ELSE coalesce(head(COLLECT {
    MATCH (hp:GNode {id: root.id})
      USING INDEX SEEK hp:GNode(branch_id, id)
      WHERE hp.branch_id IN [view.head.line, view.head.main] AND (hp.gone IS NULL AND ((hp.branch_id = view.head.line AND hp.vfrom <= view.head.ver AND view.head.ver < hp.vto) OR (view.head.line <> view.head.main AND hp.branch_id = view.head.main AND hp.vfrom <= view.head.base AND view.head.base < hp.vto AND NOT EXISTS {
        MATCH (shadow_hp:GNode {branch_id: CASE WHEN hp.branch_id <> view.head.line THEN view.head.line END, id: hp.id})
          USING INDEX SEEK shadow_hp:GNode(branch_id, id)
          WHERE shadow_hp.vfrom <= view.head.ver
      })))
    RETURN root {.*, x: hp.x, y: hp.y} AS atHead
  }), root {.*}) END AS root, rootPorts, rootNames, rootNamesRest, descendants, edges
}
RETURN b {.*} AS branch, p {.*} AS project, m.role AS role, root, rootPorts, rootNames, rootNamesRest, descendants, edges
