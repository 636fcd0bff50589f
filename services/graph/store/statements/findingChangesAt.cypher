CALL () {
  MATCH (f:GFinding)
    USING INDEX SEEK f:GFinding(branch_id, vfrom)
    WHERE f.branch_id = $line AND f.vfrom = $w AND f.sort_key < $to AND NOT EXISTS {
      MATCH (g:GFinding {branch_id: $line, id: f.id})
        USING INDEX SEEK g:GFinding(branch_id, id)
        WHERE g.vto = $w
    }
  WITH f
    ORDER BY f.sort_key
    LIMIT toInteger($limit)
  RETURN collect(f {.code, .locator, .severity, .message}) AS added
}
CALL () {
  MATCH (f:GFinding)
    USING INDEX SEEK f:GFinding(branch_id, vto)
    WHERE f.branch_id = $line AND f.vto = $w AND f.sort_key < $to AND NOT EXISTS {
      MATCH (g:GFinding {branch_id: $line, id: f.id})
        USING INDEX SEEK g:GFinding(branch_id, id)
        WHERE g.vfrom = $w
    }
  WITH f
    ORDER BY f.sort_key
    LIMIT toInteger($limit)
  RETURN collect(f {.code, .locator, .severity, .message}) AS cleared
}
RETURN added, cleared
