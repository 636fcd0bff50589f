MATCH (b:Branch {id: $mainId})
  WHERE b.findings_claim = $claim
REMOVE b.findings_claim, b.findings_claim_at
RETURN true AS released
