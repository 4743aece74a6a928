// The route's Node preload (`NODE_OPTIONS=--require`): makes the app's `fetch` and its `http`/`https` requests honour
// HTTPS_PROXY, HTTP_PROXY and NO_PROXY, which Node before 24 ignores. Bundled as CommonJS into dist/bin/route-preload.cjs.
import { createGlobalProxyAgent } from "global-agent";
import { EnvHttpProxyAgent, setGlobalDispatcher } from "undici";

/** undici's EnvHttpProxyAgent, made without its "experimental" warning, which would land in every app's log. */
function quietEnvProxyAgent(): EnvHttpProxyAgent {
  const emitWarning = process.emitWarning;
  process.emitWarning = () => undefined;
  try {
    return new EnvHttpProxyAgent();
  } finally {
    process.emitWarning = emitWarning;
  }
}

// Node's own fetch takes the dispatcher undici's setGlobalDispatcher stores on globalThis.
setGlobalDispatcher(quietEnvProxyAgent());
// The unprefixed variables (HTTP_PROXY, not GLOBAL_AGENT_HTTP_PROXY), for every request, even one given its own agent.
createGlobalProxyAgent({ environmentVariableNamespace: "", forceGlobalAgent: true });
