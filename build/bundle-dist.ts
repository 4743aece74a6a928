// `pnpm build`'s last step, after tsc's declarations: the bins' entries in dist/bin/, the library's and the chunks all share in dist/lib/ (see bundles.ts).
import { bundlePackage } from "./bundles.ts";

await bundlePackage(".", "dist");
