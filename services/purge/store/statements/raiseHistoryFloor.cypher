MATCH (b:Branch {id: $line})
SET b.history_floor = CASE WHEN coalesce(b.history_floor, 0) < $floor THEN toInteger($floor) ELSE b.history_floor END
RETURN b.history_floor AS floor
