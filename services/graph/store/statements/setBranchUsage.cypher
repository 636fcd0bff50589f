MATCH (b:Branch {id: $branchId})
SET b.node_count = $nodes, b.edge_count = $edges, b.stored_bytes = $bytes
RETURN b.id AS id
