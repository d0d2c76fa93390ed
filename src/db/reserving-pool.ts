// PostgreSQL's pool, with connections kept for acknowledgements. A listener's save must commit before Slack is
// answered; background work — four jobs at once (WORK_CONCURRENCY), two App Home builds, the outbox's sender, the
// usage recorder beside each Claude call, the health check's three counts — could otherwise hold every connection of
// the pool, and a click's save would queue behind them. Background work holds at most `max - reserved` connections
// at a time; work Slack waits on (src/ack-path.ts) takes any free one.
import pg from 'pg';
import { slackWaiting } from '../ack-path.js';

type ConnectCallback = (error: Error | undefined, client: pg.PoolClient | undefined, release: () => void) => void;

export class AckReservingPool extends pg.Pool {
  private held = 0;
  private readonly waiting: (() => void)[] = [];
  readonly backgroundMax: number;

  constructor(config: pg.PoolConfig & { max: number }, reserved: number) {
    super(config);
    this.backgroundMax = Math.max(1, config.max - reserved);
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<pg.PoolClient> | void {
    if (slackWaiting()) return callback ? super.connect(callback) : super.connect();
    const connected = this.take().then(() =>
      super.connect().then(
        (client) => this.freedOnRelease(client),
        (error: unknown) => {
          this.free();
          throw error;
        },
      ),
    );
    if (!callback) return connected;
    connected.then(
      (client) => callback(undefined, client, () => client.release()),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), undefined, () => {}),
    );
  }

  /** Background connections held now, and background requests waiting for one (tests, diagnostics). */
  get background(): { held: number; waiting: number } {
    return { held: this.held, waiting: this.waiting.length };
  }

  private async take(): Promise<void> {
    if (this.held < this.backgroundMax) {
      this.held++;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private free(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.held--;
  }

  private freedOnRelease(client: pg.PoolClient): pg.PoolClient {
    const release = client.release.bind(client);
    let freed = false;
    client.release = (error?: Error | boolean) => {
      if (!freed) {
        freed = true;
        this.free();
      }
      return release(error);
    };
    return client;
  }
}
