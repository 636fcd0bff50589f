MATCH (b:Branch {id: $mainId})
  WHERE b.findings_from IS NULL AND (b.findings_claim IS NULL OR b.findings_claim_at < $staleBefore)
SET b.findings_claim = $claim, b.findings_claim_at = $now
RETURN b.version AS version
