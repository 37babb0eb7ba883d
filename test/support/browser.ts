/**
 * A real headless Chromium for page tests (playwright-core drives the machine's /usr/bin/chromium; CI installs it
 * from Debian's packages when missing). Every request the page makes is recorded, so a test can check that nothing
 * leaves the installation's origin.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { findChromium } from '../prerequisites.ts';

/** CHROMIUM_PATH, else /usr/bin/chromium, else chromium on PATH: the rule npm test and .ci/setup check by. */
export const CHROMIUM = findChromium() ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export type TestBrowser = { browser: Browser; page: () => Promise<{ page: Page; requests: string[] }>; close: () => Promise<void> };

/** `args`: more Chromium switches (for example host-resolver rules that give 127.0.0.1 a LAN-like name). */
export async function startBrowser(args: string[] = []): Promise<TestBrowser> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is not installed at ${CHROMIUM}: apt-get install -y chromium (CI installs it), or set CHROMIUM_PATH`);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', ...args],
  });
  return {
    browser,
    page: async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      page.setDefaultTimeout(20_000);
      const requests: string[] = [];
      page.on('request', (request) => void requests.push(request.url()));
      return { page, requests };
    },
    close: () => browser.close(),
  };
}
