import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { execa } from "execa";
import { bootMsAnnotation } from "../common/contract.ts";
import { postgresBinaries } from "../harness/services/postgres-binaries.ts";
import { postgresTemplate, serviceCacheEnv } from "../harness/services/postgres-template.ts";
import { serviceUser } from "../harness/services/service-user.ts";
import { median, type Figure } from "./figure.ts";
import { results, type Suite } from "./playwright-results.ts";

const root = resolve(import.meta.dirname, "..");

/** The side's configs: without a service, and with one of the kind BENCH_SERVICE_KIND names. */
const bare = "bench/services-side/bare.config.ts";
const withService = "bench/services-side/service.config.ts";
const kinds = ["postgres", "redis", "mysql"] as const;
type Kind = (typeof kinds)[number];

/**
 * One direct `playwright test` run of the side's scenario, with a service of `kind` or none: its wall time and the
 * harness's boot time.
 */
async function side(kind?: Kind): Promise<{ readonly ms: number; readonly bootMs: number }> {
  const config = kind === undefined ? bare : withService;
  const started = performance.now();
  const run = await execa("node", ["node_modules/@playwright/test/cli.js", "test", "--config", config], {
    cwd: root,
    reject: false,
    env: { PLAYWRIGHT_JSON_OUTPUT_FILE: "", ...(kind === undefined ? {} : { BENCH_SERVICE_KIND: kind }) },
  });
  const ms = performance.now() - started;
  const [result] = results((JSON.parse(run.stdout) as { suites: Suite[] }).suites);
  if (result?.status !== "passed")
    throw new Error(`bench: the side of ${config} (${kind ?? "no service"}) did not pass; fix it first:\n${run.stdout.slice(0, 2000)}`);
  return { ms, bootMs: Number(result.annotations.find((annotation) => annotation.type === bootMsAnnotation)?.description) };
}

/** ms `work` takes. */
async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/**
 * What a service costs: a side (a direct run of one scenario) with a postgres, a redis or a mysql service against the
 * same side without, in turns; and making a PostgreSQL cluster with initdb (a template, in a fresh cache) against
 * copying the template, in turns.
 */
export async function servicesFigures(turns = 5): Promise<Figure[]> {
  // A warm-up of each: a template is made once, as in any run after a machine's first.
  await side();
  for (const kind of kinds) await side(kind);
  type Side = { ms: number; bootMs: number };
  const sides: Array<{ bare: Side } & Record<Kind, Side>> = [];
  for (let turn = 0; turn < turns; turn++) {
    const own = { bare: await side() } as { bare: Side } & Record<Kind, Side>;
    for (const kind of kinds) own[kind] = await side(kind);
    sides.push(own);
  }

  const env = { PATH: process.env.PATH ?? "/usr/bin", LANG: "C.UTF-8" };
  const bin = await postgresBinaries({ name: "bench", bin: undefined, root, env });
  const runAs = await serviceUser();
  const work = await mkdtemp(join(tmpdir(), "bench-services-"));
  const named = process.env[serviceCacheEnv];
  const clusters: Array<{ initdb: number; copy: number }> = [];
  try {
    for (let turn = 0; turn < turns; turn++) {
      process.env[serviceCacheEnv] = join(work, `cache-${turn}`);
      let template = "";
      const initdb = await timed(async () => {
        template = await postgresTemplate({ bin: bin.dir, user: "postgres", password: "postgres", database: "app", runAs, env, cwd: work });
      });
      const copy = await timed(() => execa("cp", ["-a", template, join(work, `copy-${turn}`)]));
      clusters.push({ initdb, copy });
    }
  } finally {
    if (named === undefined) delete process.env[serviceCacheEnv];
    else process.env[serviceCacheEnv] = named;
    await rm(work, { recursive: true, force: true });
  }

  const of = (values: ReadonlyArray<number>) => median(values);
  const perKind = kinds.flatMap((kind): Figure[] => [
    { figure: `side-with-${kind}-to-side-ratio`, value: of(sides.map((one) => one[kind].ms / one.bare.ms)), unit: "ratio", goal: null },
    { figure: `side-with-${kind}-over-side-ms`, value: of(sides.map((one) => one[kind].ms - one.bare.ms)), unit: "ms", goal: null },
    { figure: `side-with-${kind}-ms`, value: of(sides.map((one) => one[kind].ms)), unit: "ms", goal: null },
    { figure: `boot-with-${kind}-ms`, value: of(sides.map((one) => one[kind].bootMs)), unit: "ms", goal: null },
  ]);
  return [
    { figure: "side-ms", value: of(sides.map(({ bare: b }) => b.ms)), unit: "ms", goal: null },
    { figure: "boot-ms", value: of(sides.map(({ bare: b }) => b.bootMs)), unit: "ms", goal: null },
    ...perKind,
    { figure: "postgres-initdb-ms", value: of(clusters.map(({ initdb }) => initdb)), unit: "ms", goal: null },
    { figure: "postgres-template-copy-ms", value: of(clusters.map(({ copy }) => copy)), unit: "ms", goal: null },
    { figure: "postgres-copy-to-initdb-ratio", value: of(clusters.map(({ initdb, copy }) => copy / initdb)), unit: "ratio", goal: null },
  ];
}
