import { expect } from 'chai';
import type { NewLineContentPart } from '../graph';
import { PartQueue } from './partQueue';

/** A part of one node row named `name` (what a lane takes; its rows are not read here). */
const part = (name: string): NewLineContentPart => ({
  nodes: [{ id: name, props: {} }],
  ports: [],
  edges: [],
  findings: [],
});
const nameOf = (taken: NewLineContentPart | undefined) => taken?.nodes[0]?.id;

describe('PartQueue: the parts the lanes of a staged import share', () => {
  it('hands each part to one taker, in order, then the last parts once added, then none', async () => {
    const queue = new PartQueue([part('a'), part('b')][Symbol.iterator]());
    expect(nameOf(await queue.take())).to.equal('a');
    expect(nameOf(await queue.take())).to.equal('b');
    // the first parts are all taken and the last are not known yet: the taker waits
    const waiting = queue.take();
    const early = await Promise.race([waiting.then(() => 'taken'), Promise.resolve('waiting')]);
    expect(early).to.equal('waiting');
    queue.addLast([part('c')][Symbol.iterator]());
    expect(nameOf(await waiting)).to.equal('c');
    expect(await queue.take()).to.equal(undefined);
  });

  it('once stopped, hands out nothing more, and wakes the takers that wait', async () => {
    const queue = new PartQueue([part('a'), part('b')][Symbol.iterator]());
    await queue.take();
    await queue.take();
    const waiting = [queue.take(), queue.take()];
    queue.stop();
    expect(await Promise.all(waiting)).to.deep.equal([undefined, undefined]);
    queue.addLast([part('c')][Symbol.iterator]());
    expect(await queue.take()).to.equal(undefined);
  });
});
