// `pnpm build`'s last step, after tsc's declarations: the bins' bundles in dist/bin/ and the library's in dist/lib/ (see bundles.ts).
import { bundlePackage } from "./bundles.ts";

await bundlePackage(".", "dist");
