import { expect, test as base, type BrowserContext } from '@playwright/test';

export * from '@playwright/test';

const PREFIX = '[csp-violation]';

/** Makes every page of `context` report Content-Security-Policy violations on the console, where the guard collects them. */
async function watch(context: BrowserContext, found: string[]): Promise<void> {
  await context.addInitScript((prefix: string) => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`${prefix} ${e.effectiveDirective} blocked ${e.blockedURI || '(inline)'} at ${e.sourceFile}:${e.lineNumber}`);
    });
  }, PREFIX);
  context.on('console', (msg) => {
    const text = msg.text();
    if (text.startsWith(PREFIX) || (msg.type() === 'error' && text.includes('Content Security Policy'))) found.push(`${msg.location().url}: ${text}`);
  });
}

/**
 * The suite runs under the app's real CSP: any violation, on the test's own page or on a page of a
 * context the test opens itself (a second person), fails the test with the list.
 */
export const test = base.extend<{ cspGuard: void }>({
  cspGuard: [
    async ({ browser, context }, use) => {
      const found: string[] = [];
      await watch(context, found);
      const newContext = browser.newContext;
      browser.newContext = async (...args: Parameters<typeof newContext>) => {
        const created = await newContext.apply(browser, args);
        await watch(created, found);
        return created;
      };
      try {
        await use();
      } finally {
        browser.newContext = newContext;
      }
      expect([...new Set(found)], 'Content-Security-Policy violations').toEqual([]);
    },
    { auto: true },
  ],
});
