UNWIND $ids AS id
OPTIONAL MATCH (cur:GFinding {branch_id: $view.line, id: id})
  USING INDEX SEEK cur:GFinding(branch_id, id)
  WHERE cur.vto = 9007199254740991
WITH id, cur, $view.line = $view.main AS onMain, cur IS NOT NULL AND cur.vfrom = $view.ver AS sameVersion, cur IS NOT NULL AND cur.vfrom < $view.ver AS older
CALL (cur, older) {
  WITH cur
    WHERE older
  SET cur.vto = toInteger($view.ver)
}
CALL (cur, onMain, sameVersion, id) {
  WITH cur, id
    WHERE NOT onMain AND sameVersion
  SET cur = {branch_id: $view.line, id: id, vfrom: toInteger($view.ver), vto: 9007199254740991, gone: true}
}
CALL (cur, onMain, id) {
  WITH id
    WHERE NOT onMain AND cur IS NULL
  CREATE (:GFinding {branch_id: $view.line, id: id, vfrom: toInteger($view.ver), vto: 9007199254740991, gone: true})
}
// last, and decided before any subquery runs: nothing reads a record deleted here
CALL (cur, onMain, sameVersion) {
  WITH cur
    WHERE onMain AND sameVersion
  DELETE cur
}
RETURN count(id) AS removed
