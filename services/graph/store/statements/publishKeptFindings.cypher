MATCH (b:Branch {id: $mainId})
  WHERE b.findings_claim = $claim
WITH b, b.version = $version AND b.findings_from IS NULL AS done
SET b.findings_from = CASE WHEN done THEN toInteger($version) ELSE b.findings_from END
FOREACH (_ IN CASE WHEN done THEN [1] ELSE [] END | REMOVE b.findings_claim, b.findings_claim_at)
RETURN done
