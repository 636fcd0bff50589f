/**
 * Separate-process mode: which service process owns each OpenAPI operation. The gateway keeps
 * authentication, rate limits, request validation and the probes; every other operation runs in its
 * owner, reached over HTTP at the URL config.split.serviceUrls gives for it. Graph reads and graph
 * writes are separate owners so reads scale on their own.
 */
import { SERVICE_NAMES, ServiceName } from '../../shared/config/serviceNames';

export { SERVICE_NAMES };
export type { ServiceName };

export const OPERATION_OWNERS: Readonly<Record<string, ServiceName>> = {
  createProject: 'projects',
  listProjects: 'projects',
  updateProject: 'projects',
  deleteProject: 'projects',
  forkBranch: 'branches',
  listBranches: 'branches',
  renameBranch: 'branches',
  discardBranch: 'branches',
  getMainGraph: 'graph-read',
  getBranchGraph: 'graph-read',
  getSubtree: 'graph-read',
  getTopLevel: 'graph-read',
  getMainTopLevel: 'graph-read',
  searchNodes: 'graph-read',
  searchMainNodes: 'graph-read',
  getNeighborhood: 'graph-read',
  getBoundary: 'graph-read',
  getMergePreview: 'graph-read',
  getBranchDiff: 'graph-read',
  listBranchChanges: 'graph-read',
  exportBranchFile: 'graph-read',
  validateDeltas: 'graph-write',
  applyDeltas: 'graph-write',
  mergeBranch: 'graph-write',
  importProject: 'graph-write',
  listDecisions: 'decisions',
  getDecision: 'decisions',
};

/** Operations the gateway answers itself in every mode. */
export const GATEWAY_OPERATIONS = ['getHealth', 'getReady', 'getMetrics'] as const;

export function isServiceName(name: string): name is ServiceName {
  return (SERVICE_NAMES as readonly string[]).includes(name);
}

export function operationsOf(service: ServiceName): string[] {
  return Object.entries(OPERATION_OWNERS)
    .filter(([, owner]) => owner === service)
    .map(([operationId]) => operationId);
}
