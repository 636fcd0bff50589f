/** The service processes of separate-process mode, named in SERVICE_URLS. */
export const SERVICE_NAMES = [
  'projects',
  'branches',
  'graph-read',
  'graph-write',
  'decisions',
] as const;

export type ServiceName = (typeof SERVICE_NAMES)[number];
