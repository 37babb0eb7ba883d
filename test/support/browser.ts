/**
 * A real headless Chromium for page tests (playwright-core drives the machine's /usr/bin/chromium; CI installs it
 * from Debian's packages when missing). Every request the page makes is recorded, so a test can check that nothing
 * leaves the installation's origin.
 */
import { existsSync } from 'node:fs';
import type { TestFn } from 'ava';
import { chromium, type Browser, type Page } from 'playwright-core';
import { findChromium } from '../prerequisites.ts';

/** CHROMIUM_PATH, else /usr/bin/chromium, else chromium on PATH: the rule npm test and .ci/setup check by. */
export const CHROMIUM = findChromium() ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export type TestBrowser = {
  browser: Browser;
  page: () => Promise<{ page: Page; requests: string[] }>;
  /**
   * What the pages open since `since` show and what went wrong in them, for a failed test's log (pages of other tests
   * running meanwhile included: each says when it was opened); closed pages are forgotten.
   */
  explain: (since?: Date) => Promise<string>;
  close: () => Promise<void>;
};

/** A page, when it was opened, and what went wrong in it: console errors, failed requests, answers of 400 and more. */
type Watched = { page: Page; openedAt: Date; problems: string[] };

/** How long describing one page may take (a page stuck in a navigation or a busy script is not waited for). */
const DESCRIBE_MS = 5_000;

/** Where a page stands: its address, its headings and the start of its text. */
async function describe({ page, openedAt, problems }: Watched): Promise<string> {
  const headings = await page
    .locator('h1, h2')
    .allInnerTexts()
    .catch((error: Error) => [`(not read: ${error.message})`]);
  const text = await page
    .locator('body')
    .innerText({ timeout: 2_000 })
    .catch((error: Error) => `(not read: ${error.message})`);
  return [
    `page ${page.url()} (opened ${openedAt.toISOString()})`,
    `  headings: ${JSON.stringify(headings.map((heading) => heading.replace(/\s+/g, ' ').trim()))}`,
    `  text: ${JSON.stringify(text.replace(/\s+/g, ' ').slice(0, 1_500))}`,
    ...problems.slice(-20).map((problem) => `  ${problem}`),
  ].join('\n');
}

/** `args`: more Chromium switches (for example host-resolver rules that give 127.0.0.1 a LAN-like name). */
export async function startBrowser(args: string[] = []): Promise<TestBrowser> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is not installed at ${CHROMIUM}: apt-get install -y chromium (CI installs it), or set CHROMIUM_PATH`);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', ...args],
  });
  let opened: Watched[] = [];
  return {
    browser,
    page: async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      page.setDefaultTimeout(20_000);
      const requests: string[] = [];
      const problems: string[] = [];
      const started = Date.now();
      const at = () => `+${((Date.now() - started) / 1000).toFixed(1)}s`;
      page.on('request', (request) => void requests.push(request.url()));
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning') problems.push(`${at()} console ${message.type()}: ${message.text()}`);
      });
      page.on('requestfailed', (request) => void problems.push(`${at()} failed ${request.method()} ${request.url()}: ${request.failure()?.errorText}`));
      page.on('response', (response) => {
        if (response.status() >= 400) problems.push(`${at()} ${response.status()} ${response.request().method()} ${response.url()}`);
      });
      opened.push({ page, openedAt: new Date(), problems });
      return { page, requests };
    },
    explain: async (since = new Date(0)) => {
      opened = opened.filter((watched) => !watched.page.isClosed());
      const described = opened
        .filter((watched) => watched.openedAt >= since)
        .map((watched) =>
          Promise.race([
            describe(watched).catch((error: Error) => `page ${watched.page.url()}: not described (${error.message})`),
            new Promise<string>((resolve) =>
              setTimeout(() => resolve(`page ${watched.page.url()}: not described within ${DESCRIBE_MS} ms`), DESCRIBE_MS).unref(),
            ),
          ]),
        );
      return (await Promise.all(described)).join('\n');
    },
    close: () => browser.close(),
  };
}

/**
 * A failed test of this file logs what its pages showed (ava prints a failed test's log): a wait that timed out on a
 * loaded CI machine then says which page was there instead.
 */
export function explainFailures(test: TestFn, browser: () => TestBrowser | undefined) {
  const started = new Map<string, Date>();
  // A hook's title is "beforeEach hook for <the test's title>" (afterEach.always likewise).
  const testOf = (title: string) => title.replace(/^.*? hook for /, '');
  test.beforeEach((t) => void started.set(testOf(t.title), new Date()));
  test.afterEach.always(async (t) => {
    const since = started.get(testOf(t.title));
    started.delete(testOf(t.title));
    if (t.passed) return;
    const explained = await browser()?.explain(since);
    if (explained) t.log(explained);
  });
}
