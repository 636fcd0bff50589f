CALL () {
  MATCH (b:Branch)
    WHERE b.status IN ['active', 'merged'] AND b.deleted_at IS NULL AND b.is_main = false AND ($projectId IS NULL OR b.project_id = $projectId)
  CALL (b) {
    MATCH (c:Change {branch_id: b.id})
      USING INDEX SEEK c:Change(branch_id, created_at)
      WHERE c.created_at < $cutoff
    RETURN max(c.version) AS atCutoff
  }
  RETURN b, coalesce(atCutoff, 0) AS floor
  UNION ALL
  MATCH (b:Branch)
    WHERE b.is_main = true AND b.deleted_at IS NULL AND ($projectId IS NULL OR b.project_id = $projectId)
  CALL (b) {
    MATCH (c:Change {branch_id: b.id})
      USING INDEX SEEK c:Change(branch_id, created_at)
      WHERE c.created_at < $cutoff
    RETURN max(c.version) AS atCutoff
  }
  CALL (b) {
    MATCH (o:Branch {project_id: b.project_id})
      WHERE o.is_main = false AND o.deleted_at IS NULL AND o.status = 'active'
    // a rebased branch still reads main at its earlier bases for versions before a rebase
      RETURN min(reduce(low = o.base_main_version, x IN coalesce(o.prior_bases, []) |
                        CASE WHEN x < low THEN x ELSE low END)) AS lowestBase
  }
  WITH b, [x IN [coalesce(atCutoff, 0), b.version - toInteger($minMain) + 1, lowestBase] WHERE x IS NOT NULL] AS bounds
  RETURN b, reduce(f = b.version, x IN bounds | CASE WHEN x < f THEN x ELSE f END) AS floor
}
WITH b, floor
  WHERE floor > coalesce(b.history_floor, 0)
CALL (b, floor) {
  OPTIONAL MATCH (o:Branch {project_id: b.project_id})
    WHERE b.is_main AND o.is_main = false AND o.deleted_at IS NULL AND o.status = 'merged' AND o.base_main_version < floor
  WITH DISTINCT o.base_main_version AS pin
    WHERE pin IS NOT NULL
  RETURN collect(pin) AS pins
}
RETURN b.id AS line, floor, pins, b.is_main AS isMain
  LIMIT toInteger($limit)
