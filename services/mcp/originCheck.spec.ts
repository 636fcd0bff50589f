/** The Origin rule of /mcp (DNS-rebinding protection). */
import { expect } from 'chai';
import { mcpOriginAllowed } from './originCheck';

describe('MCP origin check', () => {
  it('lets a request without Origin through: agents and CLIs send none', () => {
    expect(mcpOriginAllowed(undefined, [])).to.equal(true);
  });

  it('allows the loopback origins on any port, and refuses any other by default', () => {
    for (const origin of [
      'http://localhost:8080',
      'http://127.0.0.1:3000',
      'https://localhost',
      'http://[::1]:8080',
      'HTTP://LOCALHOST:8080',
    ])
      expect(mcpOriginAllowed(origin, []), origin).to.equal(true);
    for (const origin of [
      'http://evil.example',
      'http://localhost.evil.example:8080',
      'http://127.0.0.1.nip.io:8080',
      'null',
      'file://',
      'not a url',
      '',
    ])
      expect(mcpOriginAllowed(origin, []), origin).to.equal(false);
  });

  it('allows the configured origins exactly (scheme, host and port), and all with *', () => {
    const allowed = ['https://graph.example.com'];
    expect(mcpOriginAllowed('https://graph.example.com', allowed)).to.equal(true);
    expect(mcpOriginAllowed('https://graph.example.com:443', allowed)).to.equal(true);
    expect(mcpOriginAllowed('http://graph.example.com', allowed)).to.equal(false);
    expect(mcpOriginAllowed('https://graph.example.com:8443', allowed)).to.equal(false);
    expect(mcpOriginAllowed('https://evil.example', allowed)).to.equal(false);
    expect(mcpOriginAllowed('https://evil.example', ['*'])).to.equal(true);
  });
});
