// `pnpm build`'s last step, after tsc: the bins' bundles in dist/bin/ and the library's in dist/lib/ (see bundles.ts).
import { bundleBins, bundleLibrary } from "./bundles.ts";

await Promise.all([bundleBins("dist"), bundleLibrary("dist")]);
