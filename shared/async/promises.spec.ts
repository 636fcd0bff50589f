/** Unit tests of the named ways to start work that is not awaited on the spot. */
import { expect } from 'chai';
import { bestEffort, startEarly } from './promises';

describe('startEarly and bestEffort', () => {
  it('startEarly: a rejection is not unhandled before the await, and the await still sees it', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const early = startEarly(Promise.reject(new Error('lease refused')));
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).to.deep.equal([]);
      let seen: unknown;
      await early.catch((error: unknown) => (seen = error));
      expect((seen as Error).message).to.equal('lease refused');
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('bestEffort: resolves whether the work succeeds or fails, and reports a failure with its reason', async () => {
    const reports: string[] = [];
    await bestEffort(Promise.resolve('ok'), 'cache write', (_e, why) => reports.push(why));
    expect(reports).to.deep.equal([]);
    await bestEffort(Promise.reject(new Error('down')), 'cache write', (e, why) =>
      reports.push(`${why}: ${(e as Error).message}`),
    );
    expect(reports).to.deep.equal(['cache write: down']);
    await bestEffort(Promise.reject(new Error('down')), 'no reporter: dropped on purpose');
  });
});
