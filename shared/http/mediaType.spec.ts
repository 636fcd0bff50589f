import { expect } from 'chai';
import { mediaTypeOf } from './mediaType';

describe('mediaTypeOf: the media type a Content-Type names', () => {
  it('drops the parameters and the case', () => {
    expect(mediaTypeOf('Application/JSON ; charset=utf-8')).to.equal('application/json');
    expect(mediaTypeOf('application/vnd.api+json')).to.equal('application/vnd.api+json');
  });

  it("is '' without a header, and the first of a header sent twice", () => {
    expect(mediaTypeOf(undefined)).to.equal('');
    expect(mediaTypeOf(['text/plain', 'application/json'])).to.equal('text/plain');
  });
});
