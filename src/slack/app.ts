// The Bolt app: Socket Mode when an app-level token is set (no public URL needed), else the HTTP receiver on PORT —
// with OAuth and the installation store in the database when client credentials are set, or a single workspace's bot
// token. Request signatures are always verified (Bolt's default, kept on). The HTTP receiver answers Slack when a
// listener is done (`processBeforeResponse`): listeners do only quick, durable work before that, so nothing Slack saw
// acknowledged is lost to a crash. The listeners are registered per kind.
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  App,
  HTTPReceiver,
  type InstallationStore,
  LogLevel,
  type ReceiverEvent,
  SocketModeReceiver,
  type SocketModeReceiverOptions,
} from '@slack/bolt';
import { log } from '../log.js';
import type { SlackDeps } from './deps.js';
import { register as registerActions } from './listeners/actions/index.js';
import { register as registerCommands } from './listeners/commands/index.js';
import { register as registerEvents } from './listeners/events/index.js';
import { register as registerShortcuts } from './listeners/shortcuts/index.js';
import { register as registerViews } from './listeners/views/index.js';

/**
 * Every bot scope the code needs, and why (manifest.yml lists the same; a test checks it): posting and editing the
 * thread (every agent's turn of a round is one line of the round's message, posted as Parley: no persona, so no
 * chat:write.customize); /parley and the shortcut; reading shared files and uploading the chart and PO; 👀;
 * thread replies as answers, and finding a message the outbox may have posted before a crash; whether a person is a
 * workspace admin (users.info), who may change the settings; whether Parley is in a channel, and whether it is shared
 * with another organisation (conversations.info on channels, private channels and DMs); DMs to Parley (help).
 */
export const BOT_SCOPES = [
  'chat:write',
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

/** Where Socket Mode events are saved before Bolt acknowledges them (src/inbox/): resolves once saved. */
export interface SlackEventInbox {
  save(event: { eventId: string; teamId: string | null; body: Record<string, unknown> }): Promise<unknown>;
}

export interface SlackAppOptions {
  connection: SlackConnection;
  /** Required in Socket Mode: events are saved here first and processed from it (see `replaySavedEvent`). */
  inbox?: SlackEventInbox;
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
  // convoStore false: Bolt's default conversation store (a global middleware that reads and writes an in-memory store
  // for every request, as context.conversation / updateConversation) is off; nothing in Parley reads it.
  const appOptions = { clientOptions, logLevel: LogLevel.WARN, extendedErrorHandler: true, convoStore: false } as const;
  let app: App;
  let receiver: HTTPReceiver | SocketModeReceiver;
  if (connection.kind === 'socket') {
    if (!options.inbox) throw new Error('Socket Mode needs an inbox to save events in before they are acknowledged');
    receiver = new InboxFirstSocketModeReceiver({ appToken: connection.appToken }, options.inbox);
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
  // message to the person where a listener could give one). An event has not: its error is thrown on — over HTTP the
  // receiver answers 500 instead of acknowledging work that was not saved, and Slack sends the event again; in Socket
  // Mode the event runs from the inbox, which tries it again later (the listeners are idempotent).
  app.error(async ({ error, body }: { error: Error; body: unknown }) => {
    log.error('slack listener failed', { error });
    if (isEventCallback(body)) throw error;
  });
  return { app, receiver };
}

/** Marks a delivery as coming from the inbox (Bolt copies it into the listeners' context). */
const FROM_INBOX = 'parleyFromInbox';

/**
 * Runs an event saved in the inbox through the app's listeners, as Slack delivered it. Rejects when a listener failed,
 * so the inbox tries it again.
 */
export async function replaySavedEvent(app: App, body: Record<string, unknown>): Promise<void> {
  const event: ReceiverEvent = { body, ack: async () => {}, customProperties: { [FROM_INBOX]: true } };
  await app.processEvent(event);
}

/**
 * Socket Mode, with the acknowledgement after the save: Bolt acknowledges an event (over the socket) before any
 * listener runs, so an Events API delivery is not handed to Bolt at all. It is saved in the inbox, then acknowledged;
 * when the save fails it is not acknowledged, and Slack delivers it again. Clicks, submissions and commands go to Bolt
 * as before (their listeners acknowledge once their work is saved). Replays from the inbox carry FROM_INBOX.
 */
class InboxFirstSocketModeReceiver extends SocketModeReceiver {
  constructor(
    options: SocketModeReceiverOptions,
    private readonly inbox: SlackEventInbox,
  ) {
    super(options);
  }

  override init(app: App): void {
    const inbox = this.inbox;
    const savingFirst = new Proxy(app, {
      get(target, property, receiver) {
        if (property !== 'processEvent') return Reflect.get(target, property, receiver);
        return async (event: ReceiverEvent): Promise<void> => {
          const saved = event.customProperties?.[FROM_INBOX] !== true && savedEventOf(event.body);
          if (!saved) return target.processEvent(event);
          await inbox.save(saved);
          await event.ack();
        };
      },
    });
    super.init(savingFirst);
  }
}

/** What the inbox keeps of an Events API delivery; null for anything else (or one without an event id). */
function savedEventOf(body: unknown): { eventId: string; teamId: string | null; body: Record<string, unknown> } | null {
  if (!isEventCallback(body)) return null;
  const envelope = body as Record<string, unknown>;
  const eventId = envelope.event_id;
  if (typeof eventId !== 'string' || eventId === '') return null;
  const teamId = typeof envelope.team_id === 'string' ? envelope.team_id : null;
  return { eventId, teamId, body: envelope };
}

/** An Events API delivery (Slack retries it when it is not answered with a 2xx), as opposed to a click or a form. */
function isEventCallback(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { type?: unknown }).type === 'event_callback';
}
