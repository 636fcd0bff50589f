MATCH (b:Branch {id: $mainId})
  WHERE b.stage_id = $stageId
REMOVE b.stage_id, b.stage_until, b.stage_version, b.stage_branch
RETURN b.id AS id
