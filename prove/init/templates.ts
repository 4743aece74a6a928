import { warmWhy } from "./choices.ts";
import type { Warm } from "./detect.ts";
import type { ProcessesPlan, ProcessLine } from "./processes.ts";
import type { ServicesPlan } from "./services.ts";

/** The config's lines that point the app's model provider at the replay agent, each with its reason. */
export interface ProviderLines {
  /** app.provider; empty writes no `provider` line. */
  readonly variables: Readonly<Record<string, string>>;
  readonly why: string;
  /** Why app.route is true; undefined writes no `route` line. */
  readonly route: string | undefined;
  /** The comment naming the other provider SDKs found; undefined when there are none. */
  readonly others: string | undefined;
}

/** What the starter config says, each value with the comment that explains it. */
export interface ConfigValues {
  /** The app's folder relative to the repository's root, "." for the root. */
  readonly root: string;
  /** What `install: "auto"` runs for this app, e.g. "npm install (no lockfile)". */
  readonly install: string;
  readonly start: string;
  /** Why start is this command, e.g. "Vite takes the port as a flag". */
  readonly startWhy: string;
  /** Set when init could not tell how the server gets its port: the reason. */
  readonly portUnknown: string | undefined;
  /** app.host and why, when the framework wants the browser on a host of its own. */
  readonly host: { readonly host: string; readonly why: string } | undefined;
  /** The ready check's path, e.g. "/" or "/sub/". */
  readonly readyPath: string;
  /** Why the ready path is what it is, e.g. "base in vite.config.ts"; undefined for the default "/". */
  readonly readyPathWhy: string | undefined;
  /** Set when the app's config sets its base path to something init cannot read: the sentence saying so. */
  readonly basePathUnknown: string | undefined;
  /** The package's docs/config.md relative to the app's folder, e.g. "node_modules/scenario-prover/docs/config.md". */
  readonly docs: string;
  /** The ready and test timeouts in ms and why, for a dev server that compiles on demand; undefined keeps the defaults. */
  readonly timeouts: { readonly ready: number; readonly test: number; readonly why: string } | undefined;
  /** The API routes for app.ready.warm, with the files they come from and why; undefined writes no `warm`. */
  readonly warm: Warm | undefined;
  /** The model provider's lines; undefined when the app lists no provider SDK init knows. */
  readonly provider: ProviderLines | undefined;
  /** app.services, app.prepare and app.env for the app's databases, each with its reason. */
  readonly services: ServicesPlan;
  /** The processes beside the server, written in app.start with it. */
  readonly processes: ProcessesPlan;
}

/** One line for a comment: no line breaks. */
const oneLine = (text: string) => text.replace(/\s*[\r\n]+\s*/g, " ");

/** A number of milliseconds as TypeScript with a digit separator, e.g. 90_000. */
const ms = (value: number) => String(value).replace(/\B(?=(\d{3})+(?!\d))/g, "_");

/** An object of string values as one line of TypeScript: `{ NAME: "value", … }`. */
const objectLine = (values: Readonly<Record<string, string>>) =>
  `{ ${Object.entries(values)
    .map(([name, value]) => `${name}: ${JSON.stringify(value)}`)
    .join(", ")} }`;

/** The app's provider and route lines, with their reasons. */
function providerLines(provider: ProviderLines | undefined): string[] {
  if (provider === undefined) return [];
  return [
    ...(provider.others === undefined ? [] : [`    // ${oneLine(provider.others)}`]),
    ...(Object.keys(provider.variables).length === 0
      ? []
      : [`    provider: ${objectLine(provider.variables)}, // ${oneLine(provider.why)}`]),
    ...(provider.route === undefined ? [] : [`    route: true, // ${oneLine(provider.route)}`]),
  ];
}

/** Lines of `key: value, // why`, indented by `indent`. */
const reasoned = (indent: string, lines: ReadonlyArray<{ readonly key: string; readonly value: string; readonly why: string }>) =>
  lines.map((line) => `${indent}${line.key}: ${line.value}, // ${oneLine(line.why)}`);

/** app.services and app.prepare, before app.start: what is started and made before the app. */
function serviceLines(plan: ServicesPlan): string[] {
  const commented = plan.commented.map((line) => `${plan.services.length === 0 ? "    " : "      "}${line}`);
  const services =
    plan.services.length === 0
      ? commented
      : [
          "    // Started fresh for each test, each with its own data folder and a free port; stopped and removed with the app.",
          "    services: {",
          ...reasoned(
            "      ",
            plan.services.map((service) => ({
              key: service.name,
              value: `{ kind: ${JSON.stringify(service.kind)}${service.database === undefined ? "" : `, database: ${JSON.stringify(service.database)}`} }`,
              why: service.why,
            })),
          ),
          ...commented,
          "    },",
        ];
  const [only, ...more] = plan.prepare;
  const prepare =
    only === undefined
      ? []
      : more.length === 0
        ? [`    prepare: ${JSON.stringify(only.command)}, // ${oneLine(only.why)}; run in the app's folder once the services are ready`]
        : [
            "    // Run in order in the app's folder once the services are ready.",
            "    prepare: [",
            ...plan.prepare.map((line) => `      ${JSON.stringify(line.command)}, // ${oneLine(line.why)}`),
            "    ],",
          ];
  return [...services, ...prepare];
}

/** app.env: the variables that hand the app its services' addresses. */
function envLines(plan: ServicesPlan): string[] {
  if (plan.env.length === 0) return [];
  return [
    "    env: {",
    ...reasoned(
      "      ",
      plan.env.map((line) => ({ key: line.name, value: JSON.stringify(line.value), why: line.why })),
    ),
    "    },",
  ];
}

/** A process beside the server, as app.start names it: its command, and the line it logs once ready. */
function processLines(line: ProcessLine): string[] {
  if (line.ready === undefined) {
    return [
      `      // init found no line ${line.name} logs once it is ready: give it ready: { log: /<that line>/ }, or a path it serves.`,
      `      ${line.name}: ${JSON.stringify(line.command)}, // ${oneLine(line.why)}`,
    ];
  }
  return [
    `      ${line.name}: { command: ${JSON.stringify(line.command)}, ready: { log: /${line.ready.log}/ } }, // ${oneLine(line.why)}; ${line.ready.file} logs it once ready`,
  ];
}

/** app.start: one command, or the server and the processes beside it. */
function startLines(values: ConfigValues): string[] {
  const together = values.processes.together === undefined ? [] : [`    // ${oneLine(values.processes.together)}`];
  const unknown = (indent: string) =>
    values.portUnknown === undefined
      ? []
      : [
          `${indent}// Could not tell how the server gets its port (${oneLine(values.portUnknown)}):`,
          `${indent}// it must listen on the PORT environment variable, or put {port} into this command.`,
        ];
  const why = values.portUnknown === undefined ? ` // ${oneLine(values.startWhy)}` : "";
  if (values.processes.processes.length === 0)
    return [...together, ...unknown("    "), `    start: ${JSON.stringify(values.start)},${why}`];
  return [
    "    // The browser opens the first; each process has its own port, readiness and log.",
    "    start: {",
    ...unknown("      "),
    `      ${values.processes.web}: ${JSON.stringify(values.start)},${why}`,
    ...values.processes.processes.flatMap(processLines),
    "    },",
  ];
}

/** The text of scenarios.config.ts. */
export function renderConfig(values: ConfigValues): string {
  const start = [...serviceLines(values.services), ...startLines(values)];
  const host = values.host === undefined ? [] : [`    host: ${JSON.stringify(values.host.host)}, // ${oneLine(values.host.why)}`];
  const timeouts = values.timeouts;
  const readyWhy = [values.readyPathWhy, timeouts?.why]
    .filter((why) => why !== undefined)
    .map(oneLine)
    .join("; ");
  const warm = values.warm;
  const warmText = warm === undefined ? "" : `, warm: [${warm.paths.map((path) => JSON.stringify(path)).join(", ")}]`;
  const ready = [
    ...(values.basePathUnknown === undefined ? [] : [`    // ${oneLine(values.basePathUnknown)}`]),
    ...(warm === undefined ? [] : [`    // warm: ${oneLine(warmWhy(warm))}`]),
    `    ready: { path: ${JSON.stringify(values.readyPath)}${timeouts === undefined ? "" : `, timeout: ${ms(timeouts.ready)}`}${warmText} },${readyWhy === "" ? "" : ` // ${readyWhy}`}`,
  ];
  return [
    'import { defineScenarioConfig } from "scenario-prover/harness";',
    "",
    `// The app under test. Every field is described in ${values.docs}.`,
    "export default defineScenarioConfig({",
    '  testDir: "scenarios",',
    ...(timeouts === undefined ? [] : [`  timeout: ${ms(timeouts.test)}, // a test's own time; ${oneLine(timeouts.why)}`]),
    "  // A proof's base side fails by waiting out this timeout: keep it short.",
    "  expect: { timeout: 5_000 },",
    "  app: {",
    `    root: ${JSON.stringify(values.root)}, // the app's folder, relative to the repository's root`,
    `    install: "auto", // here: ${oneLine(values.install)}; false skips installing`,
    ...start,
    ...host,
    ...ready,
    ...providerLines(values.provider),
    ...envLines(values.services),
    "  },",
    "});",
    "",
  ].join("\n");
}

/** The title of the example's first test, the one to make reproduce the bug. */
export const firstTestTitle = "the app opens";

/** The example transcript as the example scenario names it. */
export interface ExampleTranscript {
  /** Its path relative to the scenario, e.g. "./example.ndjson". */
  readonly path: string;
  /** The SDK whose call it answers, e.g. "openai". */
  readonly sdk: string;
  /** The model and the user message it expects, and the reply it streams. */
  readonly model: string;
  readonly user: string;
  readonly reply: string;
}

/**
 * The example's test that plays its transcript: it sends the user message as most chat pages take one
 * (the first text box, then Enter) and expects the replayed reply on the page.
 */
const transcriptTest = (path: string, transcript: ExampleTranscript | undefined) =>
  transcript === undefined
    ? []
    : [
        "",
        `// ${transcript.path.replace(/^\.\//, "")}, beside this file, answers the app's ${transcript.sdk} call to ${transcript.model} with the user message ${JSON.stringify(transcript.user)};`,
        "// its first line is the replay-agent new command that wrote it, to run again with the app's own model and message.",
        'test.describe("with the example transcript", () => {',
        `  test.use({ transcript: ${JSON.stringify(transcript.path)} });`,
        "",
        "  // Sends the message as most chat pages take one: the first text box, then Enter. If the app takes it",
        "  // otherwise, change these steps: a transcript left unplayed fails the test, naming its first unplayed line.",
        '  test("the app shows the replayed reply", async ({ app, page }) => {',
        `    await app.open(${path});`,
        '    const message = page.getByRole("textbox").first();',
        `    await message.fill(${JSON.stringify(transcript.user)});`,
        '    await message.press("Enter");',
        `    await expect(page.getByText(${JSON.stringify(transcript.reply)})).toBeVisible();`,
        '    await app.screenshot("replied");',
        "  });",
        "});",
      ];

/** The text of scenarios/example.e2e.ts, opening the app at `basePath` when it is served under one, playing `transcript` when there is one. */
export function renderExample(basePath: string | undefined, transcript: ExampleTranscript | undefined): string {
  const path = basePath === undefined ? "" : JSON.stringify(basePath);
  return [
    'import { expect, test } from "scenario-prover/harness";',
    "",
    "// Make this test reproduce the bug: drive the page to where the bug shows,",
    "// then assert what should be there, so that it fails on base and passes on head.",
    `test(${JSON.stringify(firstTestTitle)}, async ({ app, page }) => {`,
    "  // To click at once on a page that hydrates, wait until it is interactive: app.interactive in",
    "  // scenarios.config.ts, or app.open(path, { until }) with what only the client renders.",
    `  await app.open(${path});`,
    '  await expect(page.locator("body")).toBeVisible();',
    '  await app.screenshot("opened");',
    "});",
    ...transcriptTest(path, transcript),
    "",
  ].join("\n");
}
