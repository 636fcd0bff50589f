/** Maps stored projects to ProjectOut, field by field. */
import type { components } from '../../shared/api/openapi.generated';
import type { ProjectRecord } from '../identity';

export type ProjectOut = components['schemas']['ProjectOut'];

/** The graph file schema version this release writes. */
export const GRAPH_SCHEMA_VERSION = 6;

export function presentProject(project: ProjectRecord): ProjectOut {
  return {
    id: project.id,
    name: project.name,
    archived: project.archived,
    // stored values passed the allowlists of projectRules.ts on the way in
    intent: (project.intent ?? null) as ProjectOut['intent'],
    language: (project.language ?? null) as ProjectOut['language'],
    graph_schema_version: GRAPH_SCHEMA_VERSION,
    created_at: project.created_at,
    updated_at: project.updated_at,
    last_opened_at: project.last_opened_at ?? null,
  };
}
