MATCH (b:Branch {id: $id})
SET b.under_review = $open
