MATCH (s:VStage {line: $line})
DELETE s
RETURN count(*) AS deleted
