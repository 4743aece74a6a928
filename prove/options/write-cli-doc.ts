// `pnpm docs:cli`: writes docs/cli.md from the declarations.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "../package-root.ts";
import { cliDoc, cliDocPath } from "./cli-doc.ts";

writeFileSync(join(packageRoot, cliDocPath), cliDoc());
console.log(`wrote ${cliDocPath}`);
