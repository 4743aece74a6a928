// Loaded with `node --import` before the prover: `import("sharp")` fails as on a machine where sharp
// has no build for its platform (the first line of sharp's own error there), and nothing else changes.
import { register } from "node:module";

const hooks = `export async function resolve(specifier, context, next) {
  if (specifier === "sharp") throw new Error('Could not load the "sharp" module using the linux-x64 runtime');
  return next(specifier, context);
}`;

register(`data:text/javascript,${encodeURIComponent(hooks)}`);
