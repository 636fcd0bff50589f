/** Hash routes of the viewer (no server routes needed beyond /app). */
import { useEffect, useState } from 'react';

/** The branch segment of main's routes: main is opened by project id. */
export const MAIN = 'main';

export type GraphTab = 'graph' | 'diff' | 'merge' | 'changes';

export type Route =
  | { name: 'projects' }
  | { name: 'branches'; projectId: string }
  | { name: 'graph'; projectId: string; branchId: string; tab: GraphTab }
  | { name: 'decision'; projectId: string; decisionId: string };

const TABS: GraphTab[] = ['graph', 'diff', 'merge', 'changes'];

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  if (parts[0] === 'p' && parts[1]) {
    const projectId = parts[1];
    if (parts[2] === 'b' && parts[3]) {
      const tab = TABS.find((t) => t === parts[4]) ?? 'graph';
      return { name: 'graph', projectId, branchId: parts[3], tab };
    }
    if (parts[2] === 'decisions' && parts[3])
      return { name: 'decision', projectId, decisionId: parts[3] };
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
    case 'graph':
      return `#/p/${route.projectId}/b/${route.branchId}/${route.tab}`;
    case 'decision':
      return `#/p/${route.projectId}/decisions/${route.decisionId}`;
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
