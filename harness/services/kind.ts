/** What the core hands one service when it starts it: its name, its own folder and port, its environment and its log. */
export interface ServiceContext {
  /** The service's name in app.services. */
  readonly name: string;
  /** An empty folder of its own, under the test's temp base. */
  readonly dataDir: string;
  /** A free port reserved for it (harness/free-port.ts), released by the core after stop. */
  readonly port: number;
  /** The environment its processes start with (allowlisted, carries the run marker SCENARIO_APP_RUN). */
  readonly env: Readonly<Record<string, string>>;
  /** Its output, for its log. */
  readonly record: (chunk: string) => void;
}

/** A service that is up and answering. */
export interface RunningService {
  /** url, host, port (+ user, password, database for SQL kinds). */
  readonly values: Readonly<Record<string, string>>;
  /** Stops every process it started and resolves once they are gone. */
  stop(): Promise<void>;
}

/** One kind of service (postgres, redis, mysql, command): how to start it from its config. */
export interface ServiceKind<Config> {
  readonly kind: string;
  /** Resolves once a real connection succeeds. */
  start(config: Config, context: ServiceContext): Promise<RunningService>;
}
