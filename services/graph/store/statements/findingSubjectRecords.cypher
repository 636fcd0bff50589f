UNWIND $ids AS sid
MATCH (f:GFinding {subject: sid})
  USING INDEX SEEK f:GFinding(branch_id, subject)
  WHERE f.branch_id IN [$view.line, $view.main] AND (f.gone IS NULL AND ((f.branch_id = $view.line AND f.vfrom <= $view.ver AND $view.ver < f.vto) OR ($view.line <> $view.main AND f.branch_id = $view.main AND f.vfrom <= $view.base AND $view.base < f.vto AND NOT EXISTS {
    MATCH (shadow_f:GFinding {branch_id: CASE WHEN f.branch_id <> $view.line THEN $view.line END, id: f.id})
      USING INDEX SEEK shadow_f:GFinding(branch_id, id)
      WHERE shadow_f.vfrom <= $view.ver
  })))
RETURN collect({id: f.id, code: f.code, locator: f.locator, severity: f.severity, message: f.message}) AS keptRecords
