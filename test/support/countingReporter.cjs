'use strict';
// Mocha's spec reporter, closed by the plain line that CI reads as a test count
// ("<label>: N passed, N failed, N skipped"). The counts are also appended to the file
// named by --reporter-option counts=..., so .ci/run can print one total for the whole run.
const fs = require('node:fs');
const path = require('node:path');
const Mocha = require('mocha');

const { EVENT_RUN_END } = Mocha.Runner.constants;

class CountingReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const opts = (options && options.reporterOption) || {};
    const label = opts.label || 'mocha';
    runner.once(EVENT_RUN_END, () => {
      const { passes, failures, pending } = runner.stats;
      process.stdout.write(`${label}: ${passes} passed, ${failures} failed, ${pending} skipped\n`);
      if (opts.counts) {
        fs.mkdirSync(path.dirname(opts.counts), { recursive: true });
        fs.appendFileSync(opts.counts, `${label} ${passes} ${failures} ${pending}\n`);
      }
    });
  }
}

module.exports = CountingReporter;
