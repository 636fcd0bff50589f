MATCH (x:GFinding {branch_id: $line})
  USING INDEX SEEK x:GFinding(branch_id, vto)
  WHERE x.vto <= toInteger($upTo) AND NONE(pin IN $pins WHERE x.vfrom <= pin AND pin < x.vto) AND ($isMain OR EXISTS {
    MATCH (next:GFinding {branch_id: $line, id: x.id})
      USING INDEX SEEK next:GFinding(branch_id, id)
      WHERE next.vfrom >= x.vto AND next.vfrom <= toInteger($upTo) + 1 AND next.vto > toInteger($upTo)
  })
CALL (x) {
  DETACH DELETE x
} IN TRANSACTIONS OF 1000 ROWS
RETURN count(*) AS deleted
