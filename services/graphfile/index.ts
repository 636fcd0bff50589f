/**
 * The graphfile service: a branch's graph as a portable file (export) and a new
 * project made from such a file (import).
 *
 * - routes: graphFileRoutes;
 * - commands for graphctl: exportBranchFileAsOperator (a branch's file, settled) and
 *   writeGraphFile (written as a stream, without holding it), importProjectForUser, and
 *   readGraphFileStream (a file read from disk without holding its text);
 * - what an import writes, in memory: readGraphFile (the file upgraded), planImport (its
 *   deltas) and checkImportContent (their records, checked whole).
 */
export { exportBranchFileAsOperator } from './commands/exportBranchFile';
export { writeGraphFile } from './graphFileWriter';
export type { FileCounts, FileExport } from './graphFileWriter';
export { importProjectForUser } from './commands/importProject';
export { generatedBehavior, rehearseStagedImport } from './importRehearsal';
export type { Rehearsal } from './importRehearsal';
export { graphFileRoutes } from './graphFileRoutes';
export { readGraphFileStream } from './graphFileStream';
export { readGraphFile } from './graphFileReader';
export { checkImportContent, planImport } from './importPlan';
export type { ImportProgress } from './importStaging';
