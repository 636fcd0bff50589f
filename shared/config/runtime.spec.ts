/**
 * The runtime the project supports: Node.js 24 LTS (Node 20 left support in April 2026).
 * `make` puts the Node that scripts/ensure-node.sh provides first on PATH, so every suite
 * runs on it; package.json's `engines` says the same to anyone who installs by hand.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const SUPPORTED_MAJOR = 24;

describe('runtime', () => {
  it('runs on Node.js 24 LTS or later', () => {
    const major = Number(process.versions.node.split('.')[0]);
    expect(major, `running on Node ${process.version}`).to.be.at.least(SUPPORTED_MAJOR);
  });

  it("names Node 24 in package.json's engines", () => {
    const pkg = JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8')) as {
      engines: { node: string };
    };
    expect(pkg.engines.node).to.equal(`>=${SUPPORTED_MAJOR}`);
  });
});
