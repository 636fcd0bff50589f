/**
 * The docs page: /docs renders the OpenAPI document with Swagger UI served from
 * npm assets. Headless Debian chromium (installed by scripts/ensure-deps.sh),
 * driven by playwright-core, loads the page, finds every operation of the document
 * by its operationId, opens one operation and sees its request and response
 * examples, and sees no request leave this service (no outside network at run time).
 */
import { expect } from 'chai';
import { currentHarness } from './support/harness';
import { Browser, launchChromium, trackedPage } from './support/webBrowser';

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

function documentOperations(): string[] {
  const paths = currentHarness().contract.document.paths as Record<
    string,
    Record<string, { operationId?: string }>
  >;
  return Object.values(paths).flatMap((item) =>
    METHODS.filter((m) => item[m]?.operationId).map((m) => item[m].operationId as string),
  );
}

describe('docs page in headless chromium', function () {
  this.timeout(120_000);
  let browser: Browser | undefined;

  // A fresh profile directory per run, the flags this machine's closed network needs.
  before(async () => {
    browser = await launchChromium();
  });

  after(async () => browser?.close());

  it('renders every operation of the document, from this service only', async () => {
    const { service } = currentHarness();
    const origin = new URL(service.url).origin;
    const { page, outside, errors } = await trackedPage(browser!, origin);

    const response = await page.goto(`${service.url}/docs`);
    expect(response?.status()).to.equal(200);
    expect(response?.headers()['content-security-policy']).to.contain("default-src 'self'");
    const expected = documentOperations();
    // a function, not a string: a string predicate is re-evaluated with eval() on each
    // poll, which the page's CSP (no 'unsafe-eval') refuses once a second poll is needed
    await page.waitForFunction(
      (count) =>
        (
          globalThis as unknown as { document: { querySelectorAll(s: string): { length: number } } }
        ).document.querySelectorAll('.opblock-summary-operation-id').length >= count,
      expected.length,
      { timeout: 60_000 },
    );
    const shown = await page.$$eval('.opblock-summary-operation-id', (nodes) =>
      nodes.map((n) => (n.textContent ?? '').trim()),
    );
    expect([...shown].sort()).to.deep.equal([...expected].sort());
    const title = await page.textContent('.info .title');
    expect(title).to.contain('Graph Design Service API');
    const opening = (await page.textContent('.info .description')) ?? '';
    for (const topic of ['Authentication', 'Errors', 'idempotency', 'Rate limits', 'Versions'])
      expect(opening.toLowerCase(), 'the opening description').to.contain(topic.toLowerCase());
    // no section sign, no pointer to the contract's outside notes, no implementation names
    expect(opening).to.not.match(/\u00a7|interpretation|openapi-backend|x-body-validation/);
    expect(outside, 'requests outside the service').to.deep.equal([]);
    expect(errors, 'page errors').to.deep.equal([]);
    await page.close();
  });

  it("shows an operation's request and response examples", async () => {
    const { service, contract } = currentHarness();
    const { page, outside, errors } = await trackedPage(browser!, new URL(service.url).origin);
    const createProject = (contract.document.paths as any)['/v1/projects'].post;
    const first = (examples: object) => Object.values(examples)[0].value;
    const request = first(createProject.requestBody.content['application/json'].examples);
    const created = first(createProject.responses['201'].content['application/json'].examples);
    const conflict = first(createProject.responses['409'].content['application/json'].examples);

    // deep linking opens the operation named in the fragment
    await page.goto(`${service.url}/docs#/projects/createProject`);
    const operation = '#operations-projects-createProject';
    await page.waitForSelector(`${operation} .responses-table`, { timeout: 60_000 });
    const shown = (await page.textContent(operation)) ?? '';
    expect(shown, 'request example').to.contain(`"name": "${request.name}"`);
    expect(shown, 'success example').to.contain(`"id": "${created.project.id}"`);
    // the message, not the code: a sample built from the schema would show the code's first value
    expect(shown, 'error example').to.contain(`"message": "${conflict.detail.message}"`);
    expect(outside, 'requests outside the service').to.deep.equal([]);
    expect(errors, 'page errors').to.deep.equal([]);
    await page.close();
  });
});
