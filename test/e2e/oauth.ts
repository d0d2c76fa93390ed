// Installing Parley over OAuth in the end-to-end tests, as a browser does: Parley's install link, Slack's authorize
// page (on the stand-in, signed in as the installer), and back to Parley's redirect URL.
import { expect } from 'vitest';
import { signedInAs } from '../../dev/slack-stand-in/index.js';
import type { SandboxedParley } from '../../dev/slack-stand-in/sandboxed-parley.js';

/** `name=value` of a Set-Cookie header (Bolt sets one cookie at a time here). */
const cookiePair = (setCookie: string | null) => setCookie?.split(';')[0] ?? '';

export interface InstallSteps {
  /** Bolt's redirect to Slack's authorize page. */
  authorizeUrl: URL;
  /** Bolt's state cookie. */
  stateCookie: string;
  /** Where Slack sent the browser back to: Parley's redirect URL with the code and the state. */
  callbackUrl: string;
  /** Parley's answer to it. */
  status: number;
  page: string;
}

/** A person signed in to Slack as `userId` installs Parley from its install link, as a browser would. */
export async function installThroughOAuth(
  parley: SandboxedParley,
  userId: string,
  options: { dropStateCookie?: boolean } = {},
): Promise<InstallSteps> {
  const parleyUrl = (path: string) => `http://127.0.0.1:${parley.env.PORT}${path}`;
  const start = await fetch(parleyUrl('/slack/install'), { redirect: 'manual' });
  expect(start.status).toBe(302);
  const authorizeUrl = new URL(start.headers.get('location') ?? '');
  const stateCookie = cookiePair(start.headers.get('set-cookie'));
  // Slack's page is stood in for on the stand-in: same path and query, another host.
  const slack = await fetch(new URL(`${authorizeUrl.pathname}${authorizeUrl.search}`, parley.sandbox.baseUrl), {
    redirect: 'manual',
    headers: { cookie: signedInAs(userId) },
  });
  expect(slack.status).toBe(302);
  const callbackUrl = slack.headers.get('location') ?? '';
  const callback = await fetch(callbackUrl, {
    redirect: 'manual',
    headers: options.dropStateCookie ? {} : { cookie: stateCookie },
  });
  return { authorizeUrl, stateCookie, callbackUrl, status: callback.status, page: await callback.text() };
}
