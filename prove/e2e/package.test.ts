import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProofReport } from "../index.ts";
import type { ProofSummary } from "../summary/schema.ts";
import { checkout, repositoryState } from "./support/prover.ts";
import { makeDashRepo, makeShopRepo, makeStoreRepo, makeWorkspaceRepo, type UserRepo } from "./support/user-repos.ts";

/** A folder name the user's checkout lives under, to be found in no file of a report. */
const planted = "planted-Xq9-checkout";

let work: string;
let tarball: string;
let shop: UserRepo;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "prove-package-"));
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

const manifest = async (dir: string) =>
  JSON.parse(await readFile(join(dir, "package.json"), "utf8")) as Record<string, Record<string, string>>;
const npx = (cwd: string, ...args: string[]) => execa("npx", args, { cwd, reject: false, stdin: "ignore" });
const npmInstall = (cwd: string, ...packages: string[]) =>
  execa("npm", ["install", "--save-dev", "--no-audit", "--no-fund", ...packages], { cwd });
/**
 * The shop's node_modules (the tarball and its dependencies, as npm installed them), copied into
 * the repository at `dir` before its own npm install: npm then unpacks only what that install adds
 * or changes, instead of every dependency again (12–15 CPU-s and 25–30 s less an install, measured here).
 * With them its package-lock.json: from node_modules alone npm writes a lockfile without the
 * packages of other platforms (sharp's), which `npm ci` then refuses as out of sync.
 */
const withShopModules = (dir: string) => execa("cp", ["-R", join(shop.dir, "node_modules"), join(shop.dir, "package-lock.json"), dir]);

/** Every file's text under `dir`, the entries of a zip (a trace) included. */
async function textsUnder(dir: string): Promise<Array<readonly [string, string]>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const texts: Array<readonly [string, string]> = [];
  for (const entry of entries.filter((candidate) => candidate.isFile())) {
    const file = join(entry.parentPath, entry.name);
    const bytes = await readFile(file);
    const parts = file.endsWith(".zip") ? Object.values(unzipSync(bytes)) : [bytes];
    texts.push([file, parts.map((part) => Buffer.from(part).toString("latin1")).join("\n")]);
  }
  return texts;
}

const cartScenario = `import { expect, test } from "scenario-prover/harness";

test("the cart adds 1 and 2 to a total of 3", async ({ app, page }) => {
  await app.open("/?a=1&b=2");
  await app.screenshot("cart");
  await expect(page.getByRole("status")).toHaveText("Total: 3");
  await app.screenshot("total");
});
`;

describe("scenario-prover as a package installed in a user's repository", () => {
  it("packs into a tarball of what a user needs: the bins with their bundles, the built JavaScript with its types, and the docs", async () => {
    const { version, exports } = (await manifest(checkout)) as unknown as {
      version: string;
      exports: Record<string, string | Record<string, string>>;
    };
    await execa("pnpm", ["pack", "--pack-destination", work], { cwd: checkout });
    tarball = join(work, `scenario-prover-${version}.tgz`);
    const files = (await execa("tar", ["-tzf", tarball])).stdout
      .split("\n")
      .map((file) => file.replace(/^package\//, ""))
      .sort();

    expect(files).toEqual(
      expect.arrayContaining([
        "package.json",
        "README.md",
        "bin/prove-scenario.mjs",
        "bin/replay-agent.mjs",
        "dist/lib/harness.js",
        "dist/harness/index.d.ts",
        "dist/lib/prove.js",
        "dist/lib/replay-agent.js",
        "dist/bin/prove-scenario.js",
        "dist/bin/replay-agent.js",
        "dist/bin/route-preload.cjs",
        "dist/lib/steps-reporter.js",
        "docs/config.md",
        "docs/routing.md",
        "docs/transcripts.md",
        "docs/providers/gemini.md",
        "docs/report-json.md",
        "docs/ci.md",
        "docs/prove-scenarios.yml",
        "docs/prove-scenarios-sharded.yml",
      ]),
    );
    // Every file an export names (its bundle, its types) is in the tarball.
    const named = Object.values(exports).flatMap((target) => (typeof target === "string" ? [target] : Object.values(target)));
    expect(files).toEqual(expect.arrayContaining(named.map((path) => path.replace(/^\.\//, ""))));
    expect(
      files.filter(
        (file) =>
          !/^(bin\/[^/]+\.mjs|dist\/bin\/[^/]+\.c?js|dist\/lib\/[^/]+\.js|dist\/.+\.d\.ts|docs\/(providers\/)?[^/]+\.(md|yml)|README\.md|package\.json)$/.test(
            file,
          ),
      ),
    ).toEqual([]);
    expect(files.filter((file) => /\.(test|e2e)\.|\/(e2e|test-apps|test-fixtures|fixtures|samples)\//.test(file))).toEqual([]);
    const [npmPack] = JSON.parse(
      (await execa("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: checkout })).stdout,
    ) as Array<{
      files: Array<{ path: string }>;
    }>;
    expect(npmPack?.files.map((file) => file.path).sort()).toEqual(files);
  });

  it("installs as a devDependency of a plain npm repository, where init writes a config, an example and a transcript for the app's openai client", async () => {
    shop = await makeShopRepo(join(work, planted, "shop"));
    await npmInstall(shop.dir, tarball);
    expect((await manifest(shop.dir)).devDependencies?.["scenario-prover"]).toMatch(/scenario-prover-.*\.tgz$/);

    const init = await npx(shop.dir, "prove-scenario", "init");
    expect(init.exitCode, init.stderr).toBe(0);
    expect(init.stderr.split("\n")).toEqual(
      expect.arrayContaining([
        "detected: start: npm start (server.js reads the PORT environment variable)",
        "detected: provider: OPENAI_BASE_URL, OPENAI_API_KEY (openai reads OPENAI_BASE_URL (from 4.21.0 on) and OPENAI_API_KEY)",
        "detected: model: gpt-4.1-mini (named in server.js)",
        "wrote scenarios.config.ts",
        "wrote scenarios/example.e2e.ts",
        "wrote scenarios/example.ndjson",
        "wrote package.json",
        "wrote .gitignore",
      ]),
    );
    expect((await manifest(shop.dir)).scripts?.["prove-scenario"]).toBe("prove-scenario");
    expect(await readFile(join(shop.dir, ".gitignore"), "utf8")).toBe("node_modules/\n/reports/\ntest-results/\n");

    // The example runs against the app in the proof of the next test; a direct run of one is the Vite app's test's.
    const again = await npx(shop.dir, "prove-scenario", "init");
    expect(again.exitCode, again.stderr).toBe(2);
    expect(again.stderr).toContain("scenarios.config.ts, scenarios/example.e2e.ts and scenarios/example.ndjson already exist");
  });

  it("in a CI job, from inside the repository with no --repo and no --config, proves every scenario under a folder at once (one of them untracked), publishes the images to the remote for a pr.md without a relative link, and sets the step's outputs and summary; the checkout stays as it was and no path of this machine is in the reports", async () => {
    await writeFile(join(shop.dir, "scenarios/cart-total.e2e.ts"), cartScenario);
    const remote = join(work, "shop-remote.git");
    await execa("git", ["init", "-q", "--bare", remote]);
    await shop.git("remote", "add", "origin", `file://${remote}`);
    const [outputs, summaryFile] = [join(work, "github-output"), join(work, "github-step-summary")];
    await Promise.all([writeFile(outputs, ""), writeFile(summaryFile, "previous step\n")]);
    const before = await repositoryState(shop.dir);

    const run = await execa(
      "npx",
      ["prove-scenario", "--base", "bug", "--head", "fix", "scenarios", "--publish", "--image-url", "https://img.example/shop/"],
      {
        cwd: shop.dir,
        reject: false,
        stdin: "ignore",
        env: { GITHUB_OUTPUT: outputs, GITHUB_STEP_SUMMARY: summaryFile },
      },
    );

    // The example init wrote passes against the app on both sides, its second test asking the shop's assistant through the
    // openai client and the transcript init wrote: one scenario proved, one not, and the worst verdict is the exit code.
    expect(run.exitCode, run.stderr).toBe(1);
    expect(
      run.stderr
        .split("\n")
        .filter((line) => / install /.test(line))
        .map((line) => line.split(/\s+/)[0]),
    ).toEqual(expect.arrayContaining(["base", "head"]));
    expect(run.stderr.split("\n").filter((line) => / install /.test(line))).toHaveLength(2);
    const summary = JSON.parse(
      await readFile(
        join(
          shop.dir,
          "reports",
          (await readdir(join(shop.dir, "reports"))).find((name) => /^[0-9a-f]{7}-[0-9a-f]{7}$/.test(name)) ?? "",
          "summary.json",
        ),
        "utf8",
      ),
    ) as ProofSummary;
    const replied = "with the example transcript › the app shows the replayed reply";
    expect(summary.scenarios.map((row) => [row.file, row.title, row.verdict])).toEqual([
      ["scenarios/cart-total.e2e.ts", "the cart adds 1 and 2 to a total of 3", "proved"],
      ["scenarios/example.e2e.ts", "the app opens", "not-proved"],
      ["scenarios/example.e2e.ts", replied, "not-proved"],
    ]);
    const folderOf = (title: string) => summary.scenarios.find((row) => row.title === title)?.dir ?? "";
    const pair = `${summary.base.sha?.slice(0, 7)}-${summary.head.sha?.slice(0, 7)}`;
    const dir = join(shop.dir, "reports", pair);

    const written = Object.fromEntries(
      [...(await readFile(outputs, "utf8")).matchAll(/^([\w-]+)(?:=(.*)|<<(\S+)\n([\s\S]*?)\n\3)$/gm)].map((match) => [
        match[1],
        match[2] ?? match[4],
      ]),
    );
    expect(written).toEqual({ verdict: "not-proved", "exit-code": "1", "report-dir": dir, "pr-md": join(dir, "pr.md") });
    const stepSummary = await readFile(summaryFile, "utf8");
    expect(stepSummary.startsWith("previous step\n")).toBe(true);
    expect(stepSummary).toContain("## ❌ Not proved: 1 of 3 scenarios proved, 2 not proved");

    const pr = await readFile(join(dir, "pr.md"), "utf8");
    expect(pr.split("\n")[0]).toBe("<!-- scenario-prover -->");
    const links = [...pr.matchAll(/(?:src|href)="([^"]*)"|\]\(([^)]*)\)/g)].map((match) => match[1] ?? match[2] ?? "");
    expect(links.length).toBeGreaterThan(0);
    expect(links.filter((link) => !link.startsWith("https://img.example/shop/"))).toEqual([]);
    expect(links).toContain(`https://img.example/shop/scenarios/cart-total/${pair}/images/base-cart.png`);
    const branch = (await execa("git", ["--git-dir", remote, "ls-tree", "-r", "--name-only", "scenario-proofs"])).stdout.split("\n");
    expect(branch).toEqual(
      expect.arrayContaining([
        `scenarios/cart-total/${pair}/images/base-cart.png`,
        `scenarios/cart-total/${pair}/comparison.png`,
        `${folderOf("the app opens")}/${pair}/images/head-opened.png`,
        `${folderOf(replied)}/${pair}/images/head-replied.png`,
      ]),
    );
    expect(branch.filter((file) => !/\.png$/.test(file))).toEqual([]);
    for (const link of links) expect(branch).toContain(link.slice("https://img.example/shop/".length));

    for (const title of ["the app opens", replied]) {
      const example = JSON.parse(await readFile(join(dir, folderOf(title), "report.json"), "utf8")) as ProofReport;
      expect([example.reasonCode, example.base.attempts, example.head.attempts]).toMatchObject([
        "passes-on-base",
        [{ outcome: "passed" }],
        [{ outcome: "passed" }],
      ]);
    }

    // The untracked scenario's report: its failure on base, its pass on head, and the command that proves it alone.
    const report = JSON.parse(await readFile(join(dir, "scenarios/cart-total/report.json"), "utf8")) as ProofReport;
    expect([report.verdict, report.reasonCode, report.scenario.file], run.stderr).toEqual([
      "proved",
      "proved",
      "scenarios/cart-total.e2e.ts",
    ]);
    expect(report.base.attempts).toMatchObject([
      { outcome: "failed", error: { kind: "assertion", location: "scenarios/cart-total.e2e.ts:6" } },
    ]);
    expect(report.base.attempts[0]?.error?.message).toContain('Received: "Total: 12"');
    expect(report.head.attempts).toMatchObject([{ outcome: "passed" }]);
    expect(report.command).toBe(
      `npx prove-scenario --base ${report.base.sha?.slice(0, 12)} --head ${report.head.sha?.slice(0, 12)} scenarios/cart-total.e2e.ts`,
    );

    const texts = await textsUnder(dir);
    expect(texts.map(([file]) => file.slice(dir.length + 1))).toEqual(
      expect.arrayContaining([
        "summary.md",
        "pr.md",
        "scenarios/cart-total/report.md",
        "scenarios/cart-total/base/trace.zip",
        "scenarios/cart-total/base/server.log",
      ]),
    );
    expect(texts.filter(([, text]) => text.includes(planted)).map(([file]) => file)).toEqual([]);
    expect(await repositoryState(shop.dir)).toEqual(before);
  });

  it("installs in a Vite app served under a sub-path, where init passes the port as flags and the example opens the sub-path", async () => {
    const store = await makeStoreRepo(join(work, "store"), "8.3.8");
    await withShopModules(store.dir);
    await npmInstall(store.dir, tarball);

    const init = await npx(store.dir, "prove-scenario", "init");
    expect(init.exitCode, init.stderr).toBe(0);
    const config = await readFile(join(store.dir, "scenarios.config.ts"), "utf8");
    expect(config).toContain(
      '    start: "npx vite --host 127.0.0.1 --port {port} --strictPort", // the dev script `vite`, its tool run by npx from node_modules/.bin; Vite takes the port as a flag\n',
    );
    expect(config).toContain('    ready: { path: "/store/" }, // base in vite.config.ts\n');
    expect(await readFile(join(store.dir, "scenarios/example.e2e.ts"), "utf8")).toContain('await app.open("/store/");');

    const example = await npx(
      store.dir,
      "playwright",
      "test",
      "-c",
      "scenarios.config.ts",
      "--reporter=line",
      "--output",
      join(work, "store-example"),
    );
    expect(example.exitCode, example.stdout).toBe(0);
    expect(example.stdout).toContain("1 passed");
  });

  it("proves a fix in a pnpm 9 workspace's app folder whose root keeps its own older Playwright, with the config and the command init wrote there, and the report's command proves it again from the root", async () => {
    const site = await makeWorkspaceRepo(join(work, "site"));
    const docs = join(site.dir, "docs");
    // At the workspace's root with -w, by the pinned pnpm through npx, as the README says; the root's own suite is on
    // Playwright 1.38, which pnpm links as scenario-prover's peer there, with a warning.
    await execa("npx", ["--yes", "pnpm@9.15.9", "add", "-D", "-w", tarball, "@playwright/test@1.38.0"], { cwd: site.dir, stdin: "ignore" });

    const init = await npx(docs, "prove-scenario", "init");
    expect(init.exitCode, init.stderr).toBe(0);
    const own = "npx --yes --prefix=/ pnpm@9.15.9 add -D scenario-prover @playwright/test@1.65";
    expect(init.stderr).toContain(
      "node_modules/@playwright/test/package.json) is version 1.38.0, and scenario-prover needs >=1.65.0 <2 (its peer dependency): a Playwright outside that range can run your own tests, but not a proof. " +
        `To leave your own suite on it, this package of the workspace takes its own beside it: run \`${own}\` before running the example; or put one in range in its place`,
    );
    expect(init.stderr).toContain("detected: install: pnpm@9.15.9 install --frozen-lockfile (packageManager in package.json) in ..\n");
    expect(init.stderr).toContain(
      "detected: start: node server.js (server.js reads the PORT environment variable; the script's own command, not run through pnpm@9.15.9",
    );
    expect(init.stderr).toContain("detected: app root: docs (relative to the repository's root)\n");
    expect(await readFile(join(docs, "scenarios.config.ts"), "utf8")).toContain(
      "Every field is described in ../node_modules/scenario-prover/docs/config.md.",
    );
    expect(init.stderr).not.toContain("scenario-prover is not in package.json's dependencies");
    expect(init.stderr.split("\n").at(-1)).toBe("  npx prove-scenario --base main --head HEAD scenarios/example.e2e.ts");
    // The command as printed, with the tarball for scenario-prover, which is not on the registry yet; the root keeps 1.38.
    await execa(own.replace(" scenario-prover ", ` ${tarball} `), { cwd: docs, shell: true, stdin: "ignore" });
    expect((await execa("npx", ["playwright", "--version"], { cwd: site.dir })).stdout).toBe("Version 1.38.0");
    await writeFile(join(docs, "scenarios/cart-total.e2e.ts"), cartScenario);

    const run = await npx(docs, "prove-scenario", "--base", "bug", "--head", "fix", "scenarios/cart-total.e2e.ts", "--json");
    expect(run.exitCode, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as ProofReport;
    expect([report.verdict, report.dir]).toEqual([
      "proved",
      `reports/docs/scenarios/cart-total/${report.base.sha?.slice(0, 7)}-${report.head.sha?.slice(0, 7)}`,
    ]);
    expect(run.stderr).toContain("base  install   pnpm@9.15.9 install --frozen-lockfile (packageManager in package.json)  ");
    expect(report.command).toBe(
      `npx prove-scenario --base ${report.base.sha?.slice(0, 12)} --head ${report.head.sha?.slice(0, 12)} docs/scenarios/cart-total.e2e.ts --config docs/scenarios.config.ts`,
    );

    // The reproduce command, run where the report is (the checkout's root), as printed.
    const again = await execa(report.command, { cwd: site.dir, shell: true, reject: false, stdin: "ignore" });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toContain("\nproved (exit 0, proved): ");
  });

  it("proves a fix in a Next.js-style app whose dev server compiles on first request and hydrates only for localhost, with a yarn v1 lockfile on a machine without yarn, with the config init wrote, when the fix moves the repository to yarn berry: each side installed by its own yarn into node_modules, and the checkout left as it was", async () => {
    const dash = await makeDashRepo(join(work, "dash"));
    await execa("npx", ["--yes", "yarn@1", "add", "-D", `file:${tarball}`, "@playwright/test@1.65.1"], { cwd: dash.dir, stdin: "ignore" });

    const init = await npx(dash.dir, "prove-scenario", "init");
    // In the checkout, yarn 1 refuses its frozen lockfile beside a file: tarball dependency (the lockfile always "needs to
    // be updated"): init says so and writes the config all the same. The sides install the commits, which have no tarball.
    expect(init.exitCode, init.stderr).toBe(1);
    expect(init.stderr).toContain(
      "failed: the install init writes failed when init ran it: `yarn@1 install --frozen-lockfile (yarn lockfile v1 in yarn.lock)` in . exited with code 1:\n" +
        "yarn install v1.22.22\n[1/4] Resolving packages...\nerror Your lockfile needs to be updated, but yarn was run with `--frozen-lockfile`.\n",
    );
    expect(init.stderr).toContain("failed: init did not try the start, as the install failed.\n");
    expect(init.stderr).toContain("detected: install: yarn@1 install --frozen-lockfile (yarn lockfile v1 in yarn.lock)\n");
    expect(init.stderr).toContain("detected: start: npx next dev ");
    const config = await readFile(join(dash.dir, "scenarios.config.ts"), "utf8");
    expect(config).toContain('    host: "localhost", //');
    expect(config).toContain('    ready: { path: "/", timeout: 90_000 }, // next dev compiles each page on its first request\n');
    await writeFile(
      join(dash.dir, "scenarios/total.e2e.ts"),
      `import { expect, test } from "scenario-prover/harness";

test("adds 1 and 2 to a total of 3", async ({ app, page }) => {
  await app.open("/");
  await page.getByRole("button", { name: "Add" }).click();
  await app.screenshot("added");
  await expect(page.getByRole("status")).toHaveText("Total: 3");
});
`,
    );

    const before = await repositoryState(dash.dir);

    const run = await npx(dash.dir, "prove-scenario", "--base", "bug", "--head", "fix", "scenarios/total.e2e.ts", "--json");
    expect(run.exitCode, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as ProofReport;
    expect(report.verdict).toBe("proved");
    expect(report.base.attempts[0]?.error?.message).toContain('Received: "Total: 12"');
    expect(run.stderr).toContain("base  install   yarn@1 install --frozen-lockfile (yarn lockfile v1 in yarn.lock)  ");
    // Head's yarn 4 would use Plug'n'Play, where `npx next dev` finds no next: its linker is set for its install alone.
    expect(run.stderr).toContain(
      "head  install   YARN_NODE_LINKER=node-modules yarn@4.9.2 install --immutable (packageManager in package.json)  ",
    );
    expect(await repositoryState(dash.dir)).toEqual(before);
  });

  it("proves a fix with the config init wrote and tried in a repository pinned to yarn 3 (Plug'n'Play) whose npm overrides stop any npx that fetches there", async () => {
    const dash = await makeDashRepo(join(work, "dash-yarn3"), "3");
    // How init used to run the pinned yarn: npx reads the repository's package.json first, and stops at its overrides.
    const inside = await execa("npx", ["--yes", "--package=@yarnpkg/cli-dist@3.6.4", "yarn", "--version"], {
      cwd: dash.dir,
      reject: false,
      stdin: "ignore",
    });
    expect(inside.exitCode).toBe(1);
    expect(inside.stderr).toContain("npm error Override for next@file:./vendor/next conflicts with direct dependency");

    // Plug'n'Play has no node_modules for scenario-prover: the shop's installed package runs, and its harness is imported by path.
    const installed = join(shop.dir, "node_modules", "scenario-prover");
    const prover = (...args: string[]) =>
      execa("node", [join(installed, "bin", "prove-scenario.mjs"), ...args], { cwd: dash.dir, reject: false, stdin: "ignore" });
    const init = await prover("init");
    expect(init.exitCode, init.stderr).toBe(0);
    const start = "npx --yes --prefix=/ --package=@yarnpkg/cli-dist@3.6.4 yarn next dev -p {port}";
    const tried = init.stderr.split("\n").filter((line) => line.startsWith("tried: "));
    expect(tried.map((line) => line.replace(/[\d.]+s\b/, "<time>"))).toEqual([
      "tried: install: yarn@3.6.4 install --immutable (packageManager in package.json) in .: worked in <time>",
      `tried: start: \`${start}\`: GET / answered in <time>, then init stopped it`,
    ]);
    const config = await readFile(join(dash.dir, "scenarios.config.ts"), "utf8");
    expect(config).toContain(
      `    start: "${start}", // the dev script \`next dev\`, its tool run by \`yarn <bin>\`, which finds it under Plug'n'Play too; next dev takes the port as -p; ` +
        "yarn there is yarn@3.6.4 (packageManager in package.json), fetched by npx from outside the repository (--prefix=/), so its npm overrides cannot stop it\n",
    );
    const harness = JSON.stringify(join(installed, "dist", "lib", "harness.js"));
    await writeFile(join(dash.dir, "scenarios.config.ts"), config.replace('"scenario-prover/harness"', harness));
    await writeFile(
      join(dash.dir, "scenarios/total.e2e.ts"),
      `import { expect, test } from ${harness};

test("adds 1 and 2 to a total of 3", async ({ app, page }) => {
  await app.open("/");
  await page.getByRole("button", { name: "Add" }).click();
  await expect(page.getByRole("status")).toHaveText("Total: 3");
});
`,
    );

    const run = await prover("--base", "bug", "--head", "fix", "scenarios/total.e2e.ts", "--json");
    expect(run.exitCode, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as ProofReport;
    expect(report.verdict).toBe("proved");
    expect(report.base.attempts[0]?.error?.message).toContain('Received: "Total: 12"');
    expect(run.stderr).toContain("base  install   yarn@3.6.4 install --immutable (packageManager in package.json)  ");

    // LangChain's shape: no linker named, so berry would use Plug'n'Play. init tries the install as a side runs it, into
    // node_modules, where `npx next dev` finds next; installed with Plug'n'Play, that npx fetches and stops at the overrides.
    await Promise.all(
      [".yarnrc.yml", ".pnp.cjs", ".pnp.loader.mjs", ".yarn", "scenarios.config.ts", "scenarios/example.e2e.ts"].map((file) =>
        rm(join(dash.dir, file), { recursive: true, force: true }),
      ),
    );
    const unnamed = await prover("init");
    expect(unnamed.exitCode, unnamed.stderr).toBe(0);
    expect(
      unnamed.stderr
        .split("\n")
        .filter((line) => line.startsWith("tried: "))
        .map((line) => line.replace(/[\d.]+s\b/, "<time>")),
    ).toEqual([
      "tried: install: YARN_NODE_LINKER=node-modules yarn@3.6.4 install --immutable (packageManager in package.json) in .: worked in <time>",
      "tried: start: `npx next dev -p {port}`: GET / answered in <time>, then init stopped it",
    ]);
  });

  it("with a repository whose own @playwright/test is below the peer range, init writes the scenarios as a package of their own with the command that installs it, a proof from the repository's package is refused naming that way, and one from the scenarios' package proves", async () => {
    const old = await makeShopRepo(join(work, "old-playwright"));
    // A real install, as TESTING.md asks of every package install (over the shop's modules, so npm unpacks only
    // Playwright 1.38): npm refuses the peer conflict unless told to leave peers alone, which a repository that keeps
    // it says in its .npmrc, so that its npm ci (the install init tries) agrees; pnpm links the repository's 1.38 with a
    // warning. Either way 1.38 is what the repository's package resolves.
    await withShopModules(old.dir);
    await writeFile(join(old.dir, ".npmrc"), "legacy-peer-deps=true\n");
    await execa("npm", ["install", "--save-dev", "--no-audit", "--no-fund", tarball, "@playwright/test@1.38.0"], { cwd: old.dir });
    const found = `node_modules/@playwright/test/package.json) is version 1.38.0, and scenario-prover needs >=1.65.0 <2 (its peer dependency)`;
    const own = "cd proofs && npm install -D scenario-prover @playwright/test@1.65";
    const upgrade = "npm i -D @playwright/test@1.65 (or pnpm add -D @playwright/test@1.65, yarn add -D @playwright/test@1.65)";

    const init = await npx(old.dir, "prove-scenario", "init");
    expect(init.exitCode, init.stderr).toBe(0);
    expect(init.stderr).toContain(found);
    expect(init.stderr).toContain(
      `To leave your own suite on it, the config and the example are in proofs/, a package of its own: run \`${own}\` before running the example, and run the prover from proofs/; or put one in range in its place: ${upgrade}.\n`,
    );
    expect(init.stderr).toContain(
      "next: run the example against your app with `cd proofs && npx playwright test -c scenarios.config.ts`, make it reproduce your bug, then prove the fix:\n" +
        '  cd proofs && npx prove-scenario --base main --head HEAD --grep "the app opens" scenarios/example.e2e.ts',
    );
    expect(existsSync(join(old.dir, "scenarios.config.ts"))).toBe(false);

    // A config in the repository's own package, where its own Playwright is what a proof would run.
    await writeFile(join(old.dir, "scenarios.config.ts"), await readFile(join(shop.dir, "scenarios.config.ts"), "utf8"));
    await mkdir(join(old.dir, "scenarios"));
    await writeFile(join(old.dir, "scenarios/cart-total.e2e.ts"), cartScenario);
    const refused = await npx(old.dir, "prove-scenario", "--base", "bug", "--head", "fix", "scenarios/cart-total.e2e.ts", "--json");
    expect(refused.exitCode, refused.stderr).toBe(2);
    const report = JSON.parse(refused.stdout) as ProofReport;
    expect([report.verdict, report.reasonCode]).toEqual(["could-not-run", "config-error"]);
    expect(report.reason).toContain(found);
    expect(report.reason).toContain(
      "To leave your own suite on it, give the scenarios a package of their own: move scenarios.config.ts and its testDir into proofs/ beside it, " +
        `run \`${own}\` in the config's folder, and run the prover from proofs/; or put one in range in its place: ${upgrade}. Then run again.`,
    );
    expect(report.base.attempts).toEqual([]);

    // The command as printed (over the shop's modules, with the tarball for scenario-prover, which is not on the registry yet).
    const proofs = join(old.dir, "proofs");
    await withShopModules(proofs);
    await execa(own.replace(" scenario-prover ", ` ${tarball} `).replace("npm install", "npm install --no-audit --no-fund"), {
      cwd: old.dir,
      shell: true,
    });
    await writeFile(join(proofs, "scenarios/cart-total.e2e.ts"), cartScenario);
    const run = await npx(proofs, "prove-scenario", "--base", "bug", "--head", "fix", "scenarios/cart-total.e2e.ts", "--json");
    expect(run.exitCode, run.stderr).toBe(0);
    expect((JSON.parse(run.stdout) as ProofReport).verdict).toBe("proved");
    expect((await execa("npx", ["playwright", "--version"], { cwd: old.dir })).stdout).toBe("Version 1.38.0");
  });
});
