/**
 * The two pages people reach from an e-mail before they have an account or a session: `/invite` (join a cluster:
 * create an account, sign in, or use Steam or Discord) and `/reset-password`. Self-contained (no asset from another
 * host), strict Content-Security-Policy, never cached, and no referrer: the secret is in the fragment and is posted
 * to the API by the pages' script (script.js, plain browser JavaScript). Served by api/routes/onboardingPages.ts.
 */
import { readFileSync } from 'node:fs';
import type { Context } from 'koa';

export type OnboardingPage = 'invite' | 'reset';

/** The pages' script, served at SCRIPT_PATH. */
export const SCRIPT = readFileSync(new URL('./script.js', import.meta.url), 'utf8');
export const SCRIPT_PATH = '/pages/onboarding.js';

const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f4f5f7;color:#1d2330}
main{max-width:28rem;margin:4rem auto;padding:2rem;background:#fff;border-radius:8px;box-shadow:0 1px 4px #0002}
label{display:block;margin:.75rem 0}input{display:block;width:100%;box-sizing:border-box;padding:.5rem;font:inherit;margin-top:.25rem}
button,.button{display:inline-block;padding:.5rem 1rem;border:0;border-radius:4px;background:#2d5bd7;color:#fff;font:inherit;text-decoration:none;cursor:pointer;margin:.25rem .25rem .25rem 0}
button:disabled{opacity:.6}.error{color:#b00020}.success{color:#1b7a35}`;

/** The HTML of `page`; the script fills it in (`discord`: whether to offer Discord sign-in). */
export const pageHtml = (page: OnboardingPage, title: string, discord: boolean) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
<style>${STYLE}</style>
</head>
<body data-page="${page}" data-discord="${discord}">
<main><p>Loading…</p><noscript>This page needs JavaScript.</noscript></main>
<script src="${SCRIPT_PATH}"></script>
</body>
</html>
`;

/** The headers every answer of these pages carries (the page and its script). */
export const secure = (ctx: Context) => {
  ctx.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('Cache-Control', 'no-store');
  ctx.set('X-Content-Type-Options', 'nosniff');
};
