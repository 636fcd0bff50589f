UNWIND $lines AS line
UNWIND $keys AS key
MATCH (t:Touch {branch_id: line.id, key: key})
  USING INDEX t:Touch(branch_id, key, version)
  WHERE t.version <= line.ver
RETURN t.branch_id AS line, t.version AS version, t.key AS key, t.entity AS entity, t.entity_id AS id, t.action AS action, t.fields AS fields, t.ports AS ports, t.wires AS wires
