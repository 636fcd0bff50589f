/**
 * `--require` this after harness.ts to run the integration tests through the
 * separate-process mode: `make integration-split`.
 */
import { harnessOptions } from './harness';

harnessOptions.topology = 'split';
