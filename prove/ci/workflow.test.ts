import { readdirSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { type Command, parseCommand } from "../options/index.ts";

/** The GitHub Actions workflows docs/ci.md offers, read as GitHub reads them, and their prove-scenario commands as the CLI reads them. */

interface Step {
  readonly name?: string;
  readonly id?: string;
  readonly uses?: string;
  readonly run?: string;
  readonly if?: string;
  readonly with?: Readonly<Record<string, unknown>>;
  readonly env?: Readonly<Record<string, unknown>>;
}

interface Job {
  readonly if?: string;
  readonly strategy?: { readonly matrix?: Readonly<Record<string, ReadonlyArray<unknown>>> };
  readonly steps: ReadonlyArray<Step>;
}

interface Workflow {
  readonly on: Readonly<Record<string, unknown>>;
  readonly permissions: Readonly<Record<string, string>>;
  readonly jobs: Readonly<Record<string, Job>>;
}

const docs = fileURLToPath(new URL("../../docs/", import.meta.url));
const workflowFiles = readdirSync(docs)
  .filter((file) => file.endsWith(".yml"))
  .sort();

/** The prove-scenario commands each workflow runs, in order. */
const expectedCommands: Readonly<Record<string, ReadonlyArray<Command["kind"]>>> = {
  "prove-scenarios-sharded.yml": ["prove", "merge"],
  "prove-scenarios.yml": ["prove"],
};

const marker = "<!-- scenario-prover -->";
const headSha = "${{ github.event.pull_request.head.sha }}";

/** Values for the `${{ … }}` expressions of run scripts and for their shell variables; a list (`"${name[@]}"`) is two scenario files. */
const sampleExpressions: Readonly<Record<string, string>> = { "matrix.shard": "2" };
const sampleVariables: Readonly<Record<string, string>> = {
  BASE_SHA: "c62e3170d1a2b3c4d5e6f708192a3b4c5d6e7f80",
  HEAD_SHA: "a35150b9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3",
};
const sampleList = ["scenarios/cart-total.e2e.ts", "scenarios/checkout/pay.e2e.ts"];

function withSampleExpressions(script: string): string {
  return script.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_whole, expression: string) => {
    const value = sampleExpressions[expression];
    if (value === undefined) throw new Error(`No sample value for \${{ ${expression} }} in a run script; add one to sampleExpressions.`);
    return value;
  });
}

/** `$NAME`, `${NAME}` or `${NAME[@]}` at `line[start]`: its sample value or list, and where it ends. */
function expansion(line: string, start: number): { readonly value: string | ReadonlyArray<string>; readonly end: number } {
  const match = /^\$(?:\{([A-Za-z_]\w*)(\[@\])?\}|([A-Za-z_]\w*))/.exec(line.slice(start));
  if (match === null)
    throw new Error(`Unsupported expansion in ${JSON.stringify(line.slice(start))}; use $NAME, \${NAME} or "\${NAME[@]}".`);
  const end = start + match[0].length;
  if (match[2] !== undefined) return { value: sampleList, end };
  const name = match[1] ?? match[3] ?? "";
  const value = sampleVariables[name];
  if (value === undefined) throw new Error(`No sample value for $${name}; add one to sampleVariables.`);
  return { value, end };
}

/** The words of one shell command line, as bash splits and expands them; stops at ; & | < > and a comment. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let list: ReadonlyArray<string> | undefined;
  let quote: "'" | '"' | undefined;
  const endWord = () => {
    if (list !== undefined) {
      if (word !== "") throw new Error(`A list expands only as a word of its own: ${JSON.stringify(line)}`);
      words.push(...list);
    } else if (word !== undefined) {
      words.push(word);
    }
    word = undefined;
    list = undefined;
  };
  for (let index = 0; index < line.length; index += 1) {
    const char = line[index] ?? "";
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else word += char;
      continue;
    }
    if (char === "\\") {
      const next = line[index + 1] ?? "";
      const escapes = quote === undefined || '$`"\\'.includes(next);
      word = (word ?? "") + (escapes ? next : `\\${next}`);
      index += 1;
      continue;
    }
    if (char === "$") {
      const { value, end } = expansion(line, index);
      if (typeof value === "string") word = (word ?? "") + value;
      else if (word === undefined || word === "") [word, list] = ["", value];
      else throw new Error(`A list expands only as a word of its own: ${JSON.stringify(line)}`);
      index = end - 1;
      continue;
    }
    if (quote === '"') {
      if (char === '"') quote = undefined;
      else word += char;
      continue;
    }
    if (char === "'" || char === '"') {
      quote = char;
      word ??= "";
    } else if (/\s/.test(char)) {
      endWord();
    } else if (";&|<>".includes(char) || (char === "#" && word === undefined)) {
      break;
    } else {
      word = (word ?? "") + char;
    }
  }
  if (quote !== undefined) throw new Error(`Unclosed ${quote} in ${JSON.stringify(line)}`);
  endWord();
  return words;
}

const launchers = [
  ["pnpm", "exec", "prove-scenario"],
  ["pnpm", "prove-scenario"],
  ["npx", "prove-scenario"],
];

/** The arguments of every prove-scenario command in a run script, after its continuation lines are joined. */
function proverCommands(script: string): string[][] {
  return withSampleExpressions(script)
    .replace(/\\\n/g, " ")
    .split("\n")
    .filter((line) => /\bprove-scenario\b/.test(line) && !line.trim().startsWith("#"))
    .map((line) => {
      const words = shellWords(line);
      const launcher = launchers.find((prefix) => prefix.every((word, index) => words[index] === word));
      if (launcher === undefined)
        throw new Error(`Run prove-scenario as pnpm prove-scenario, pnpm exec prove-scenario or npx prove-scenario: ${line.trim()}`);
      return words.slice(launcher.length);
    });
}

const valueOf = (args: ReadonlyArray<string>, flag: string) => {
  const index = args.indexOf(flag);
  return index < 0 ? undefined : args[index + 1];
};

const uses = (step: Step, action: string) => step.uses?.startsWith(`${action}@`) === true;

/** The command a prove-scenario line means, read from its first word; one test asks parseCommand itself. */
const kindOf = (args: ReadonlyArray<string>): Command["kind"] => (args[0] === "merge" || args[0] === "publish" ? args[0] : "prove");

const scratch: string[] = [];
afterEach(async () => {
  await Promise.all(scratch.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/**
 * A real repository where a pull request branched from main, then main moved on: the pull request
 * adds, changes, renames and deletes scenarios and changes other files; main adds a scenario of its own.
 */
async function pullRequestRepo() {
  const repo = await mkdtemp(join(tmpdir(), "prove-ci-repo-"));
  scratch.push(repo);
  const env = {
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_AUTHOR_NAME: "t",
    GIT_AUTHOR_EMAIL: "t@t",
    GIT_COMMITTER_NAME: "t",
    GIT_COMMITTER_EMAIL: "t@t",
  };
  const git = async (...args: string[]) => (await execa("git", args, { cwd: repo, env })).stdout;
  const write = async (files: Readonly<Record<string, string>>) => {
    for (const [file, text] of Object.entries(files)) {
      await mkdir(dirname(join(repo, file)), { recursive: true });
      await writeFile(join(repo, file), text);
    }
  };
  const commit = async (message: string) => {
    await git("add", "-A");
    await git("commit", "-qm", message);
    return git("rev-parse", "HEAD");
  };
  await git("init", "-q", "-b", "main");
  await write({
    "src/cart.ts": "export const total = 2;\n",
    "scenarios/unchanged.e2e.ts": "// unchanged\n",
    "scenarios/cart-total.e2e.ts": "// cart total\n",
    "scenarios/old-name.e2e.ts": "// a scenario long enough that git sees its rename as one\n".repeat(5),
    "scenarios/removed.e2e.ts": "// removed\n",
    "scenarios/cart-total.ndjson": "{}\n",
  });
  const fork = await commit("base");
  return { repo, git, write, commit, fork };
}

/** Runs a run script as the runner does (bash -e) in `cwd`, with the files GitHub gives a step. */
async function runStep(step: Step, cwd: string, env: Readonly<Record<string, string>>) {
  const files = await mkdtemp(join(tmpdir(), "prove-ci-step-"));
  scratch.push(files);
  const output = join(files, "output");
  const summary = join(files, "summary");
  await writeFile(output, "");
  await execa("bash", ["-e", "-c", withSampleExpressions(step.run ?? "")], {
    cwd,
    env: { ...env, GIT_CONFIG_GLOBAL: "/dev/null", GITHUB_OUTPUT: output, GITHUB_STEP_SUMMARY: summary },
  });
  return { output: await readFile(output, "utf8"), summary: await readFile(summary, "utf8").catch(() => "") };
}

it("checks every workflow in docs/ and only those", () => {
  expect(workflowFiles).toEqual(Object.keys(expectedCommands).sort());
});

describe.each(workflowFiles)("docs/%s", (file) => {
  const workflow = parse(readFileSync(`${docs}${file}`, "utf8")) as Workflow;
  const jobs = Object.values(workflow.jobs);
  const steps = jobs.flatMap((job) => job.steps);
  const commands = jobs.flatMap((job) =>
    job.steps.flatMap((step) => (step.run === undefined ? [] : proverCommands(step.run).map((args) => ({ job, step, args })))),
  );

  it("lists the scenario files the pull request adds, changes or renames, against the commit it branched from", async () => {
    const find = steps.find((step) => step.id === "find");
    expect(find?.env).toEqual({ BASE_SHA: "${{ github.event.pull_request.base.sha }}", HEAD_SHA: headSha });
    const { repo, git, write, commit, fork } = await pullRequestRepo();
    await git("checkout", "-q", "-b", "fix");
    await git("mv", "scenarios/old-name.e2e.ts", "scenarios/new-name.e2e.ts");
    await git("rm", "-q", "scenarios/removed.e2e.ts");
    await write({
      "src/cart.ts": "export const total = 3;\n",
      "scenarios/cart-total.e2e.ts": "// cart total, changed\n",
      "scenarios/cart-total.ndjson": '{"changed":true}\n',
      "scenarios/checkout/pay.e2e.ts": "// added\n",
      "scenarios/support.ts": "// not a scenario\n",
    });
    const head = await commit("fix");
    await git("checkout", "-q", "main");
    await write({ "scenarios/on-main.e2e.ts": "// main moved on\n" });
    const base = await commit("main moves on");
    await git("checkout", "-q", head);

    const { output } = await runStep(find ?? {}, repo, { BASE_SHA: base, HEAD_SHA: head });

    const delimiter = /files<<(files_[0-9a-f]{32})\n/.exec(output)?.[1];
    expect(output).toBe(
      `count=3\nbase=${fork}\nfiles<<${delimiter}\nscenarios/cart-total.e2e.ts\nscenarios/checkout/pay.e2e.ts\nscenarios/new-name.e2e.ts\n${delimiter}\n`,
    );
  });

  it("finds no scenario to prove in a pull request that changes none, and says so in the job summary", async () => {
    const find = steps.find((step) => step.id === "find");
    const { repo, write, commit, fork } = await pullRequestRepo();
    await write({ "src/cart.ts": "export const total = 3;\n" });
    const head = await commit("fix without a scenario");

    const { output, summary } = await runStep(find ?? {}, repo, { BASE_SHA: fork, HEAD_SHA: head });

    expect(output).toMatch(new RegExp(`^count=0\nbase=${fork}\nfiles<<(files_[0-9a-f]{32})\n\n\\1\n$`));
    expect(summary).toBe("No scenario added or changed under scenarios/: nothing to prove.\n");
    for (const [name, job] of Object.entries(workflow.jobs).filter(([name]) => name !== "scenarios")) {
      expect(job.if, name).toContain("needs.scenarios.outputs.count != '0'");
    }
  });

  it("runs on pull requests, allowed to push the screenshots and to comment", () => {
    expect(Object.keys(workflow.on)).toEqual(["pull_request"]);
    expect(workflow.permissions).toEqual({ contents: "write", "pull-requests": "write" });
  });

  it("checks out the pull request's head with its whole history, first in every job", () => {
    for (const job of jobs) {
      expect(uses(job.steps[0] ?? {}, "actions/checkout")).toBe(true);
    }
    for (const step of steps.filter((candidate) => uses(candidate, "actions/checkout"))) {
      expect(step.with).toEqual({ ref: headSha, "fetch-depth": 0 });
    }
  });

  it("sets up pnpm, then Node with the pnpm cache, then installs from the lockfile, in every job that runs prove-scenario", () => {
    for (const job of new Set(commands.map((command) => command.job))) {
      const order = (found: (step: Step) => boolean) => job.steps.findIndex(found);
      const pnpm = order((step) => uses(step, "pnpm/action-setup"));
      const node = order((step) => uses(step, "actions/setup-node"));
      const install = order((step) => step.run === "pnpm install --frozen-lockfile");
      expect(pnpm).toBeGreaterThan(0);
      expect(node).toBeGreaterThan(pnpm);
      expect(install).toBeGreaterThan(node);
      expect(job.steps[node]?.with?.["cache"]).toBe("pnpm");
    }
  });

  it("installs Chromium before every proof", () => {
    for (const { job, step, args } of commands.filter((command) => kindOf(command.args) === "prove")) {
      const chromium = job.steps.findIndex((candidate) => candidate.run === "pnpm exec playwright install --with-deps chromium");
      expect(chromium, args.join(" ")).toBeGreaterThan(0);
      expect(chromium).toBeLessThan(job.steps.indexOf(step));
    }
  });

  it("uploads the folder a proof or merge wrote, even when it did not prove", () => {
    const uploads = steps.filter((step) => uses(step, "actions/upload-artifact"));
    const written = commands.map(({ args }) => valueOf(args, "--out"));
    expect(uploads.length).toBeGreaterThan(0);
    for (const upload of uploads) {
      expect(upload.if).toMatch(/^always\(\) && hashFiles\('([^']+)\/\*\*'\) != ''$/);
      expect(upload.if).toContain(`hashFiles('${String(upload.with?.["path"])}/**')`);
      expect(written).toContain(upload.with?.["path"]);
    }
  });

  it("posts or updates one comment from the pr.md that publishing wrote, found by its marker", () => {
    const comment = steps.filter((step) => step.run?.includes("gh api") === true);
    expect(comment).toHaveLength(1);
    const [step] = comment;
    expect(step?.run).toContain(`startswith("${marker}")`);
    expect(step?.run).toMatch(/gh api --method PATCH "repos\/\$GITHUB_REPOSITORY\/issues\/comments\/\$id" -F "body=@\$PR_MD"/);
    expect(step?.run).toMatch(/gh api --method POST "\$comments" -F "body=@\$PR_MD"/);
    expect(step?.env?.["GH_TOKEN"]).toBe("${{ github.token }}");
    const publisher = steps.find((candidate) => step?.env?.["PR_MD"] === `\${{ steps.${candidate.id}.outputs.pr-md }}`);
    const published = commands.filter(({ args }) => args.includes("--publish") || args[0] === "publish");
    expect(published.map((command) => command.step)).toEqual([publisher]);
  });

  it("proves the listed scenarios in one proof or one per shard, --shard i/n matching the matrix, then merges and publishes", () => {
    expect(commands.map(({ args }) => kindOf(args))).toEqual(expectedCommands[file]);
    for (const { args } of commands.filter((command) => kindOf(command.args) === "prove")) {
      expect(args.slice(4, 6)).toEqual(sampleList);
    }
    for (const { job, args } of commands.filter((command) => command.args.includes("--shard"))) {
      const shards = job.strategy?.matrix?.["shard"] ?? [];
      expect(shards).toEqual(Array.from({ length: shards.length }, (_, index) => index + 1));
      expect(valueOf(args, "--shard")).toBe(`${sampleExpressions["matrix.shard"]}/${shards.length}`);
    }
  });

  it("runs only prove-scenario commands the CLI accepts", () => {
    expect(commands.map(({ args }) => parseCommand(args).kind)).toEqual(expectedCommands[file]);
  });

  it("has run scripts bash can parse", async () => {
    for (const step of steps.filter((candidate) => candidate.run !== undefined)) {
      const check = await execa("bash", ["-n"], { input: withSampleExpressions(step.run ?? ""), reject: false });
      expect(check.stderr, step.name ?? step.run).toBe("");
      expect(check.exitCode).toBe(0);
    }
  });
});
