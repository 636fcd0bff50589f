MATCH (b:Branch {id: $id})
RETURN b.version AS version
