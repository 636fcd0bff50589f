import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { accessLog, AccessLine, createLogger, Logger } from './logger';

/** The lines `write` logs, read back once the logger has flushed them to its file. */
async function linesOf(
  options: { level: string; mixin?: () => object },
  write: (logger: Logger) => void,
): Promise<Array<Record<string, unknown>>> {
  const dir = mkdtempSync(join(tmpdir(), 'logger-spec-'));
  try {
    const destination = join(dir, 'log.json');
    const logger = createLogger({ ...options, destination });
    write(logger);
    await new Promise<void>((resolve, reject) =>
      logger.flush((error) => (error ? reject(error) : resolve())),
    );
    const text = readFileSync(destination, 'utf8');
    return text
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const LINES: AccessLine[] = [
  {
    reqId: 'r-1',
    method: 'GET',
    path: '/v1/projects',
    operationId: 'listProjects',
    status: 200,
    ms: 0.4,
    userId: 'u-1',
  },
  // what a request that was never routed nor authenticated logs
  { reqId: 'r-2', method: 'POST', path: '/v1/nope', status: 404, ms: 12 },
  // characters JSON escapes, in a path as a client can send it
  { reqId: 'r-3', method: 'GET', path: '/v1/"quoted"\\é\u0001', status: 422, ms: 1.5 },
];

describe('accessLog', () => {
  it('writes each access line as pino writes the same fields at info level', async () => {
    for (const mixin of [undefined, () => ({ trace_id: 't-1', span_id: 's-1', none: undefined })]) {
      const lines = await linesOf({ level: 'info', mixin }, (logger) => {
        for (const line of LINES) {
          logger.info(line, 'request');
          accessLog(logger)(line);
        }
      });
      expect(lines).to.have.length(LINES.length * 2);
      for (let i = 0; i < lines.length; i += 2) {
        const [byPino, byAccessLog] = [lines[i], lines[i + 1]];
        // the time is the same format; the two lines may fall in different milliseconds
        expect(byAccessLog.time).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        expect({ ...byAccessLog, time: byPino.time }).to.deep.equal(byPino);
        // the same fields in the same order, for those reading the lines as text
        expect(Object.keys(byAccessLog)).to.deep.equal(Object.keys(byPino));
      }
      expect(lines[1]).to.include({ msg: 'request', level: 30, status: 200, ms: 0.4 });
      // read back as sent, through the destination's bytes
      expect(lines[5].path).to.equal(LINES[2].path);
      if (mixin) expect(lines[1]).to.include({ trace_id: 't-1', span_id: 's-1' });
    }
  });

  it('has every line written when the process exits at once after logging them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'logger-spec-'));
    try {
      const destination = join(dir, 'log.json');
      const script = `
        const { accessLog, createLogger } = require(${JSON.stringify(require.resolve('./logger'))});
        const logger = createLogger({ level: 'info', destination: ${JSON.stringify(destination)} });
        logger.info('opened');
        // once the file is open (a process's stdout is from the start)
        setTimeout(() => {
          for (let i = 0; i < 500; i++) accessLog(logger)({ ...${JSON.stringify(LINES[0])}, status: i });
          logger.info('closing');
          process.exit(0);
        }, 200);`;
      execFileSync(process.execPath, ['--require', 'tsx/cjs', '--eval', script]);
      const lines = readFileSync(destination, 'utf8').trimEnd().split('\n');
      expect(lines).to.have.length(502);
      expect(JSON.parse(lines[250]) as object).to.include({ msg: 'request', status: 249 });
      expect(JSON.parse(lines[501]) as object).to.include({ msg: 'closing' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('writes nothing when info is below the logger level', async () => {
    const lines = await linesOf({ level: 'warn' }, (logger) => {
      accessLog(logger)(LINES[0]);
      logger.warn('after');
    });
    expect(lines.map((line) => line.msg)).to.deep.equal(['after']);
  });

  it("falls back to logger.info for a logger it did not make (a request's child)", async () => {
    const lines = await linesOf({ level: 'info' }, (logger) => {
      accessLog(logger.child({ reqId: 'child' }))(LINES[1]);
    });
    expect(lines).to.have.length(1);
    expect(lines[0]).to.include({ msg: 'request', path: '/v1/nope', status: 404 });
  });
});
