/** The bodies of the versioned store's errors, as the one error mapping writes them. */
import { expect } from 'chai';
import { errorBody } from '../http/errorResponse';
import { RevertConflictError, VersionNotFoundError } from './domainErrors';

describe('versioned store errors', () => {
  it('answers a version out of range 404 version_not_found with the readable range', () => {
    const { status, body } = errorBody(new VersionNotFoundError(12, 3, 7));
    expect(status).to.equal(404);
    expect(body).to.deep.equal({
      detail: {
        code: 'version_not_found',
        message: 'version 12 is not readable; readable versions are 3 to 7',
        oldest: 3,
        newest: 7,
      },
    });
  });

  it('answers a revert in the way of later batches 409 revert_conflict naming each entity', () => {
    const { status, body } = errorBody(
      new RevertConflictError(2, [
        { kind: 'edge', id: 'b', version: 4 },
        { kind: 'node', id: 'z', version: 3 },
        { kind: 'node', id: 'a', version: 5 },
      ]),
    );
    expect(status).to.equal(409);
    expect(body).to.deep.equal({
      detail: {
        code: 'revert_conflict',
        message: 'later batches changed 3 entities written by version 2',
        entities: [
          { kind: 'node', id: 'a', version: 5 },
          { kind: 'node', id: 'z', version: 3 },
          { kind: 'edge', id: 'b', version: 4 },
        ],
      },
    });
  });
});
