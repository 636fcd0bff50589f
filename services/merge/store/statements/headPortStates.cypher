UNWIND $ids AS id
MATCH (s:Port {branch_id: $view.line, id: id})
  USING INDEX SEEK s:Port(branch_id, id)
  WHERE s.vfrom <= $view.ver AND $view.ver < s.vto
RETURN s {.*} AS state
