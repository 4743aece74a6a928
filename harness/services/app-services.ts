import type { ScenarioAppConfig } from "../config.ts";
import { serviceKinds } from "./registry.ts";
import { runPrepare } from "./prepare.ts";
import { startServices, type StartedServices } from "./start-services.ts";
import { prepareCommands, servicesOf } from "./validate.ts";

/** A test's services and prepare commands, checked before anything starts; `start` starts them. */
export interface AppServices {
  /**
   * Starts the services under `base` with `serviceEnv`, then runs `app.prepare` with the environment `appEnv` makes of
   * their values; stops them when prepare fails.
   */
  start(input: {
    readonly base: string;
    readonly serviceEnv: Readonly<Record<string, string>>;
    readonly appEnv: (values: StartedServices["values"]) => Readonly<Record<string, string>>;
    readonly fill: (text: string, values: StartedServices["values"]) => string;
  }): Promise<StartedServices>;
}

/** `app.services` and `app.prepare` of `config`, checked (a bad one throws a config error naming it); `root` is the app's folder. */
export function appServices(config: ScenarioAppConfig, root: string): AppServices {
  const kinds = serviceKinds(root);
  const services = servicesOf(config, Object.keys(kinds));
  const prepare = prepareCommands(config);
  return {
    start: async ({ base, serviceEnv, appEnv, fill }) => {
      const started = await startServices({ services, kinds, base, env: serviceEnv });
      try {
        const env = appEnv(started.values);
        await runPrepare({
          commands: prepare.map((command) => ({ written: command, run: fill(command, started.values) })),
          cwd: root,
          env,
          record: started.recorder("prepare"),
        });
      } catch (error) {
        await started.stop();
        throw error;
      }
      return started;
    },
  };
}
