CALL () {
  MATCH (f:GFinding)
    USING INDEX SEEK f:GFinding(branch_id, sort_key)
    WHERE f.branch_id = $view.line AND f.sort_key >= $from AND f.sort_key < $to AND f.vfrom <= $view.ver AND $view.ver < f.vto AND f.gone IS NULL
  WITH f
    ORDER BY f.sort_key
    LIMIT toInteger($limit)
  RETURN collect(f {.sort_key, .code, .locator, .severity, .message}) AS own
}
CALL () {
  MATCH (f:GFinding)
    USING INDEX SEEK f:GFinding(branch_id, sort_key)
    WHERE $view.line <> $view.main AND f.branch_id = $view.main AND f.sort_key >= $from AND f.sort_key < $to AND (f.gone IS NULL AND ((f.branch_id = $view.line AND f.vfrom <= $view.ver AND $view.ver < f.vto) OR ($view.line <> $view.main AND f.branch_id = $view.main AND f.vfrom <= $view.base AND $view.base < f.vto AND NOT EXISTS {
      MATCH (shadow_f:GFinding {branch_id: CASE WHEN f.branch_id <> $view.line THEN $view.line END, id: f.id})
        USING INDEX SEEK shadow_f:GFinding(branch_id, id)
        WHERE shadow_f.vfrom <= $view.ver
    })))
  WITH f
    ORDER BY f.sort_key
    LIMIT toInteger($limit)
  RETURN collect(f {.sort_key, .code, .locator, .severity, .message}) AS inherited
}
RETURN own, inherited
