MATCH (s:VStage {line: $line})
CALL (s) {
  MATCH (l:VStageLane {line: s.line})
    USING INDEX l:VStageLane(line)
  DELETE l
}
DELETE s
RETURN count(*) AS deleted
