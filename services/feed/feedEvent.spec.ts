/**
 * seenBy, the one audience rule of the feed: pages, streams sharing a project's poll and
 * webhooks all filter with it, so a working branch's events reach its owner only.
 */
import { expect } from 'chai';
import { FeedEventRecord, seenBy } from './feedEvent';

function event(audience: string | null | undefined): FeedEventRecord {
  const record: FeedEventRecord = {
    project_id: 'p',
    seq: 1,
    kind: 'branch_forked',
    branch_id: 'b',
    branch_version: 1,
    change_request_id: null,
    review_id: null,
    verdict: null,
    actor_id: 'owner',
    created_at: new Date(0).toISOString(),
    audience: audience ?? null,
  };
  // as read back from the store: a null property is not stored at all
  if (audience === undefined) delete (record as Partial<FeedEventRecord>).audience;
  return record;
}

describe('seenBy', () => {
  it("shows an event of a working branch to the branch's owner only", () => {
    expect(seenBy(event('owner'), 'owner')).to.equal(true);
    expect(seenBy(event('owner'), 'another member')).to.equal(false);
  });

  it('keeps an event with an audience from a reader acting for every member (webhooks)', () => {
    expect(seenBy(event('owner'), null)).to.equal(false);
  });

  it('shows an event for every member to every reader, its audience null or absent', () => {
    for (const e of [event(null), event(undefined)]) {
      expect(seenBy(e, 'owner')).to.equal(true);
      expect(seenBy(e, 'another member')).to.equal(true);
      expect(seenBy(e, null)).to.equal(true);
    }
  });
});
