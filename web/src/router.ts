/** Hash routes of the viewer (no server routes needed beyond /app). */
import { useEffect, useState } from 'react';

/** The branch segment of main's routes: main is opened by project id. */
export const MAIN = 'main';

export type GraphTab = 'graph' | 'diff' | 'merge' | 'versions' | 'changes';

export type Route =
  | { name: 'projects' }
  | { name: 'branches'; projectId: string }
  | {
      name: 'graph';
      projectId: string;
      branchId: string;
      tab: GraphTab;
      /** The version read (the slider's, or the newer side of a version diff); null: the head. */
      version?: number | null;
    }
  | { name: 'decision'; projectId: string; decisionId: string }
  | { name: 'changeRequests'; projectId: string }
  | { name: 'changeRequest'; projectId: string; changeRequestId: string };

const TABS: GraphTab[] = ['graph', 'diff', 'merge', 'versions', 'changes'];

function versionOf(parts: string[], at: number): number | null {
  if (parts[at] !== 'v' || !/^\d{1,15}$/.test(parts[at + 1] ?? '')) return null;
  return Number(parts[at + 1]);
}

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  if (parts[0] === 'p' && parts[1]) {
    const projectId = parts[1];
    if (parts[2] === 'b' && parts[3]) {
      const tab = TABS.find((t) => t === parts[4]) ?? 'graph';
      return { name: 'graph', projectId, branchId: parts[3], tab, version: versionOf(parts, 5) };
    }
    if (parts[2] === 'decisions' && parts[3])
      return { name: 'decision', projectId, decisionId: parts[3] };
    if (parts[2] === 'change-requests' && parts[3])
      return { name: 'changeRequest', projectId, changeRequestId: parts[3] };
    if (parts[2] === 'change-requests') return { name: 'changeRequests', projectId };
    return { name: 'branches', projectId };
  }
  return { name: 'projects' };
}

export function href(route: Route): string {
  switch (route.name) {
    case 'projects':
      return '#/';
    case 'branches':
      return `#/p/${route.projectId}`;
    case 'graph': {
      const pinned = route.version === null || route.version === undefined;
      return `#/p/${route.projectId}/b/${route.branchId}/${route.tab}${pinned ? '' : `/v/${route.version}`}`;
    }
    case 'decision':
      return `#/p/${route.projectId}/decisions/${route.decisionId}`;
    case 'changeRequests':
      return `#/p/${route.projectId}/change-requests`;
    case 'changeRequest':
      return `#/p/${route.projectId}/change-requests/${route.changeRequestId}`;
  }
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(window.location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseRoute(window.location.hash));
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return route;
}
