MATCH (:User)-[x:MEMBER_OF]->(:Project {id: $projectId})
CALL (x) {
  DELETE x
} IN TRANSACTIONS OF 1000 ROWS
RETURN count(*) AS deleted
