UNWIND $ids AS id
OPTIONAL MATCH (cur:Port {branch_id: $view.line, id: id})
  USING INDEX SEEK cur:Port(branch_id, id)
  WHERE cur.vto = 9007199254740991
WITH id, cur, $view.line = $view.main AS onMain, cur IS NOT NULL AND cur.vfrom = $view.ver AS sameVersion, cur IS NOT NULL AND cur.vfrom < $view.ver AS older
CALL (cur, onMain, older) {
  WITH cur
    WHERE onMain AND older
  SET cur.vto = toInteger($view.ver)
}
CALL (cur, onMain, sameVersion, id) {
  WITH cur, id
    WHERE NOT onMain AND sameVersion
  SET cur = {branch_id: $view.line, id: id, vfrom: toInteger($view.ver), vto: 9007199254740991, gone: true}
}
CALL (cur, onMain, older, id) {
  WITH cur, id
    WHERE NOT onMain AND (cur IS NULL OR older)
  FOREACH (c IN CASE WHEN cur IS NULL THEN [] ELSE [cur] END | SET c.vto = toInteger($view.ver))
  CREATE (:Port {branch_id: $view.line, id: id, vfrom: toInteger($view.ver), vto: 9007199254740991, gone: true})
}
// last, and decided before any subquery runs: nothing reads a record deleted here
CALL (cur, onMain, sameVersion) {
  WITH cur
    WHERE onMain AND sameVersion
  DELETE cur
}
RETURN count(id) AS removed
