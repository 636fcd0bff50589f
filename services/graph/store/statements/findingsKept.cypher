OPTIONAL MATCH (b:Branch {id: $view.line})
OPTIONAL MATCH (m:Branch {id: $view.main})
RETURN (coalesce(b.findings_from <= $view.ver, false) AND ($view.line = $view.main OR coalesce(m.findings_from <= $view.base, false))) AS kept
