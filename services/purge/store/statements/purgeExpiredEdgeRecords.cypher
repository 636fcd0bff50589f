MATCH (x:Edge {branch_id: $line})
  USING INDEX SEEK x:Edge(branch_id, vto)
  WHERE x.vto <= toInteger($upTo) AND NONE(pin IN $pins WHERE x.vfrom <= pin AND pin < x.vto)
CALL (x) {
  DETACH DELETE x
} IN TRANSACTIONS OF 1000 ROWS
RETURN count(*) AS deleted
