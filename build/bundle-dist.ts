// `pnpm build`'s last step, after tsc: the bins' bundles in dist/bin/ (see bins.ts).
import { bundleBins } from "./bins.ts";

await bundleBins("dist");
