UNWIND $touches AS t
CREATE (:Touch {branch_id: $line, version: toInteger($version), key: t.key, entity: t.entity, entity_id: t.id, action: t.action, fields: t.fields, ports: t.ports, wires: t.wires})
RETURN count(*) AS recorded
