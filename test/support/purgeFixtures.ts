/**
 * TEST FIXTURES ONLY — bulk graph content written to Neo4j directly through the
 * harness executor (the deltas API takes at most 1000 deltas a batch), in
 * the storage model of services/graph/store/graphSchema.ts (state records on the
 * given line, valid from its version 0 on), so a purge has enough to do to be
 * observed in flight; and counters of what Neo4j still holds on a line (every
 * record of a branch's line, history included) or of a project, to check what a
 * purge removed and what it kept.
 * Never use them for anything the API can do.
 */
import { OPEN_CYPHER } from '../../services/graph';
import { cypher } from '../../shared/neo4j/namedQuery';
import { currentHarness } from './harness';

const testBulkNodes = cypher(
  'testBulkNodes',
  `UNWIND range($from, $to - 1) AS i
   CREATE (n:GNode {branch_id: $branchId, id: randomUUID(), vfrom: 0, vto: ${OPEN_CYPHER},
                    kind: 'behavior', parent_id: null,
                    scope: '', name: 'bulk-' + i, description: '', aliases: [], constraints: [],
                    verifications: '[]', is_test_node: false, status: 'idle', is_external: false,
                    source_decisions: [], x: 0.0, y: 0.0})
   CREATE (o:Port {branch_id: $branchId, id: randomUUID(), vfrom: 0, vto: ${OPEN_CYPHER},
                   node_id: n.id, channel: 'outputs', ord: 0, name: 'out', type: 'int',
                   description: '', external: false})
   CREATE (:Port {branch_id: $branchId, id: randomUUID(), vfrom: 0, vto: ${OPEN_CYPHER},
                  node_id: n.id, channel: 'inputs', ord: 0, name: 'in', type: 'int',
                  description: '', external: false})
   CREATE (:Edge {branch_id: $branchId, id: randomUUID(), vfrom: 0, vto: ${OPEN_CYPHER},
                  source_handle: o.id, target_handle: null})
   RETURN count(n) AS created`,
);

/** Adds `count` nodes, each with an output and an input port and one wire. */
export async function bulkContent(branchId: string, count: number): Promise<void> {
  const chunk = 5000;
  for (let from = 0; from < count; from += chunk) {
    await currentHarness().service.executor.write(testBulkNodes, {
      branchId,
      from,
      to: Math.min(count, from + chunk),
    });
  }
}

export interface StoredContent {
  nodes: number;
  ports: number;
  edges: number;
  changes: number;
}

const testContentCounts = cypher(
  'testContentCounts',
  `CALL () { MATCH (n:GNode {branch_id: $branchId}) RETURN count(n) AS nodes }
   CALL () { MATCH (p:Port {branch_id: $branchId}) RETURN count(p) AS ports }
   CALL () { MATCH (e:Edge {branch_id: $branchId}) RETURN count(e) AS edges }
   CALL () { MATCH (c:Change {branch_id: $branchId}) RETURN count(c) AS changes }
   RETURN nodes, ports, edges, changes`,
);

export async function storedContent(branchId: string): Promise<StoredContent> {
  const rows = await currentHarness().service.executor.read<StoredContent & Record<string, number>>(
    testContentCounts,
    { branchId },
  );
  return rows[0];
}

const testBranchRecord = cypher(
  'testBranchRecord',
  'MATCH (b:Branch {id: $branchId}) RETURN b.status AS status, b.purged_at AS purgedAt',
);

export async function storedBranch(
  branchId: string,
): Promise<{ status: string; purgedAt: string | null } | undefined> {
  const rows = await currentHarness().service.executor.read<{
    status: string;
    purgedAt: string | null;
  }>(testBranchRecord, { branchId });
  return rows[0];
}

const testProjectLeftovers = cypher(
  'testProjectLeftovers',
  `CALL () { MATCH (p:Project {id: $projectId}) RETURN count(p) AS projects }
   CALL () { MATCH (:User)-[m:MEMBER_OF]->(:Project {id: $projectId}) RETURN count(m) AS memberships }
   CALL () { MATCH (b:Branch {project_id: $projectId}) RETURN count(b) AS branches }
   CALL () { MATCH (d:Decision {project_id: $projectId}) RETURN count(d) AS decisions }
   CALL () { UNWIND $branchIds AS b MATCH (n:GNode {branch_id: b}) RETURN count(n) AS nodes }
   CALL () { UNWIND $branchIds AS b MATCH (p:Port {branch_id: b}) RETURN count(p) AS ports }
   CALL () { UNWIND $branchIds AS b MATCH (e:Edge {branch_id: b}) RETURN count(e) AS edges }
   CALL () { UNWIND $branchIds AS b MATCH (c:Change {branch_id: b}) RETURN count(c) AS changes }
   CALL () {
     UNWIND $branchIds AS b
     MATCH (t:Touch {branch_id: b}) WHERE t.key IS NOT NULL AND t.version IS NOT NULL
     RETURN count(t) AS touches
   }
   RETURN projects, memberships, branches, decisions,
          nodes + ports + edges + changes + touches AS content`,
);

/** What Neo4j still holds of a project: its node, memberships, branches, decisions, content
 * (nodes, ports, wires, and the change trail with what its changes touched). */
export async function projectLeftovers(
  projectId: string,
  branchIds: string[],
): Promise<Record<string, number>> {
  const rows = await currentHarness().service.executor.read<Record<string, number>>(
    testProjectLeftovers,
    { projectId, branchIds },
  );
  return rows[0];
}

const testOwnedLeftovers = cypher(
  'testOwnedLeftovers',
  `CALL () { MATCH (e:FeedEvent {project_id: $projectId}) RETURN count(e) AS feedEvents }
   CALL () { MATCH (h:FeedHead {project_id: $projectId}) RETURN count(h) AS feedHeads }
   CALL () { MATCH (c:ChangeRequest {project_id: $projectId}) RETURN count(c) AS changeRequests }
   CALL () {
     MATCH (r:Review) WHERE r.change_request_id IN $changeRequestIds RETURN count(r) AS reviews
   }
   CALL () {
     MATCH (m:ReviewComment) WHERE m.change_request_id IN $changeRequestIds
     RETURN count(m) AS reviewComments
   }
   CALL () {
     MATCH (r:MainProtection {project_id: $projectId}) RETURN count(r) AS protectionRules
   }
   CALL () {
     MATCH (w:Webhook) WHERE w.project_id = $projectId OR w.id IN $webhookIds
     RETURN count(w) AS webhooks
   }
   CALL () {
     MATCH (d:WebhookDelivery) WHERE d.project_id = $projectId OR d.webhook_id IN $webhookIds
     RETURN count(d) AS webhookDeliveries
   }
   RETURN feedEvents, feedHeads, changeRequests, reviews, reviewComments, protectionRules,
          webhooks, webhookDeliveries`,
);

/** What Neo4j still holds of a project's records that the feed, reviews and webhooks
 * services own: its feed (events, head), its change requests with their reviews and
 * comments (found by the change requests' ids, as they do not name the project), main's
 * protection rules, its webhooks and their deliveries (by project or by webhook id). */
export async function ownedLeftovers(
  projectId: string,
  ids: { changeRequestIds: string[]; webhookIds: string[] },
): Promise<Record<string, number>> {
  const rows = await currentHarness().service.executor.read<Record<string, number>>(
    testOwnedLeftovers,
    { projectId, ...ids },
  );
  return rows[0];
}
