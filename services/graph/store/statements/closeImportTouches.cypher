MATCH (c:Change {branch_id: $line, version: 0})
  WHERE c.kind = 'import' AND c.touches_derived = true
SET c.touches_derived = null
RETURN count(c) AS closed
