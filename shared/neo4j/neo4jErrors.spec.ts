import { expect } from 'chai';
import {
  ConflictError,
  RequestValidationError,
  ServiceUnavailableError,
} from '../errors/domainErrors';
import { neo4jCode, neo4jFailure } from './neo4jErrors';

const failing = (code: string) => Object.assign(new Error('driver failure'), { code });

describe('neo4jFailure (what a Neo4j failure means to a caller)', () => {
  it('maps a uniqueness violation to a 409 constraint_violation without the Cypher', () => {
    const failure = neo4jFailure(
      failing('Neo.ClientError.Schema.ConstraintValidationFailed'),
      1000,
    );
    expect(failure?.error).to.be.instanceOf(ConflictError);
    expect((failure?.error as ConflictError).code).to.equal('constraint_violation');
    expect(failure?.unavailable).to.equal(undefined);
  });

  it('marks an unreachable database, whichever way the driver says it', () => {
    for (const code of ['ServiceUnavailable', 'SessionExpired', 'ECONNREFUSED']) {
      const failure = neo4jFailure(failing(code), 1000);
      expect(failure?.error, code).to.be.instanceOf(ServiceUnavailableError);
      expect(failure?.unavailable, code).to.equal(true);
    }
  });

  it('names the transaction limit in a timeout and marks it', () => {
    const failure = neo4jFailure(failing('Neo.ClientError.Transaction.TransactionTimedOut'), 2500);
    expect(failure?.timedOut).to.equal(true);
    expect(failure?.error.message).to.contain('2500 ms');
  });

  it('answers a transaction the database ended (terminated, a lock wait stopped) as a 503 to retry', () => {
    for (const code of [
      'Neo.ClientError.Transaction.Terminated',
      'Neo.TransientError.Transaction.Terminated',
      'Neo.ClientError.Transaction.LockClientStopped',
      'Neo.TransientError.Transaction.LockClientStopped',
      'Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration',
    ]) {
      const failure = neo4jFailure(failing(code), 1000);
      expect(failure?.error, code).to.be.instanceOf(ServiceUnavailableError);
      expect((failure?.error as ServiceUnavailableError).retryAfterSeconds, code).to.be.above(0);
    }
  });

  it('answers an unknown bookmark as a 422 on the bookmark header', () => {
    const failure = neo4jFailure(failing('Neo.ClientError.Transaction.InvalidBookmark'), 1000);
    expect(failure?.error).to.be.instanceOf(RequestValidationError);
  });

  it('leaves failures it does not know alone, and reads codes only from strings', () => {
    expect(neo4jFailure(failing('Neo.ClientError.Statement.SyntaxError'), 1000)).to.equal(
      undefined,
    );
    expect(neo4jFailure(new Error('no code'), 1000)).to.equal(undefined);
    expect(neo4jCode({ code: 42 })).to.equal(undefined);
  });
});
