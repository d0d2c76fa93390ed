// The Bolt app: Socket Mode when an app-level token is set (no public URL needed), else the HTTP receiver on PORT —
// with OAuth and the installation store in the database when client credentials are set, or a single workspace's bot
// token. Request signatures are always verified (Bolt's default, kept on). The HTTP receiver answers Slack when a
// listener is done (`processBeforeResponse`): listeners do only quick, durable work before that, so nothing Slack saw
// acknowledged is lost to a crash. The listeners are registered per kind.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { App, HTTPReceiver, type InstallationStore, LogLevel, SocketModeReceiver } from '@slack/bolt';
import { log } from '../log.js';
import type { SlackDeps } from './deps.js';
import { register as registerActions } from './listeners/actions/index.js';
import { register as registerCommands } from './listeners/commands/index.js';
import { register as registerEvents } from './listeners/events/index.js';
import { register as registerShortcuts } from './listeners/shortcuts/index.js';
import { register as registerViews } from './listeners/views/index.js';

/**
 * Every bot scope the code needs, and why (manifest.yml lists the same; a test checks it): posting and editing the
 * thread, under agent personas; /parley and the shortcut; reading shared files and uploading the chart and PO; 👀;
 * thread replies as answers, and finding a message the outbox may have posted before a crash; whether a person is a
 * workspace admin (users.info), who may change the settings; whether Parley is in a channel, and whether it is shared
 * with another organisation (conversations.info on channels, private channels and DMs); DMs to Parley (help).
 */
export const BOT_SCOPES = [
  'chat:write',
  'chat:write.customize',
  'commands',
  'files:read',
  'files:write',
  'reactions:write',
  'channels:history',
  'groups:history',
  'users:read',
  'channels:read',
  'groups:read',
  'im:read',
  'im:history',
] as const;

export type SlackConnection =
  | { kind: 'socket'; appToken: string; botToken: string; signingSecret?: string }
  | { kind: 'http'; signingSecret: string; port: number; botToken: string }
  | {
      kind: 'oauth';
      signingSecret: string;
      port: number;
      clientId: string;
      clientSecret: string;
      stateSecret: string;
      installationStore: InstallationStore;
    };

export interface SlackAppOptions {
  connection: SlackConnection;
  slackApiUrl: string;
  deps: SlackDeps;
  /** `GET /healthz` on the HTTP receiver: what a load balancer or a test asks this instance. */
  health?: () => Promise<Record<string, unknown>>;
}

export function createSlackApp(options: SlackAppOptions): { app: App; receiver: HTTPReceiver | SocketModeReceiver } {
  const { connection, slackApiUrl } = options;
  const clientOptions = { slackApiUrl };
  const { health } = options;
  const customRoutes = health
    ? [
        {
          path: '/healthz',
          method: ['GET'],
          handler: (_req: IncomingMessage, res: ServerResponse) => {
            health()
              .then((body) => {
                res.writeHead(200, { 'content-type': 'application/json' });
                res.end(JSON.stringify(body));
              })
              .catch((error: unknown) => {
                log.error('health check failed', { error });
                res.writeHead(503, { 'content-type': 'application/json' });
                res.end(JSON.stringify({ ok: false }));
              });
          },
        },
      ]
    : [];
  // extendedErrorHandler: app.error sees the request body, to tell an event (answered 500 on failure) from a click.
  const appOptions = { clientOptions, logLevel: LogLevel.WARN, extendedErrorHandler: true } as const;
  let app: App;
  let receiver: HTTPReceiver | SocketModeReceiver;
  if (connection.kind === 'socket') {
    receiver = new SocketModeReceiver({ appToken: connection.appToken });
    app = new App({ token: connection.botToken, receiver, ...appOptions });
  } else if (connection.kind === 'http') {
    receiver = new HTTPReceiver({
      signingSecret: connection.signingSecret,
      port: connection.port,
      customRoutes,
      processBeforeResponse: true,
    });
    app = new App({ token: connection.botToken, receiver, ...appOptions });
  } else {
    receiver = new HTTPReceiver({
      signingSecret: connection.signingSecret,
      port: connection.port,
      clientId: connection.clientId,
      clientSecret: connection.clientSecret,
      stateSecret: connection.stateSecret,
      scopes: [...BOT_SCOPES],
      installationStore: connection.installationStore,
      // The installer's own WebClient (oauth.v2.access, auth.test) does not inherit the App's clientOptions: without
      // them it would always call slack.com, never SLACK_API_URL.
      installerOptions: { directInstall: true, clientOptions },
      customRoutes,
      processBeforeResponse: true,
    });
    app = new App({ receiver, ...appOptions });
  }

  registerEvents(app, options.deps);
  registerActions(app, options.deps);
  registerViews(app, options.deps);
  registerCommands(app, options.deps);
  registerShortcuts(app, options.deps);

  // The backstop: unexpected errors are logged whole. A click or a submission has already been answered (with a short
  // message to the person where a listener could give one). An event over HTTP has not: its error is thrown on, so the
  // receiver answers 500 instead of acknowledging work that was not saved, and Slack sends the event again (the
  // listeners are idempotent). In Socket Mode Bolt acknowledged the event on receipt; throwing would change nothing.
  const rethrowEvents = connection.kind !== 'socket';
  app.error(async ({ error, body }: { error: Error; body: unknown }) => {
    log.error('slack listener failed', { error });
    if (rethrowEvents && isEventCallback(body)) throw error;
  });
  return { app, receiver };
}

/** An Events API delivery (Slack retries it when it is not answered with a 2xx), as opposed to a click or a form. */
function isEventCallback(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { type?: unknown }).type === 'event_callback';
}
