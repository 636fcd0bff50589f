MATCH (b:Branch {id: $mainId})
SET b.stage_id = $stageId, b.stage_until = $until, b.stage_version = $version, b.stage_branch = $branchId
RETURN b {.*} AS branch
