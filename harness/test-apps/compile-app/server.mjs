// A fixture app that, like a dev server compiling a page on demand, listens at once but answers
// the first GET of / slowly: it sends the headers and the start of the page at once, then the rest
// once "compiled", COMPILE_APP_MS (9 000) later. Every later request is answered at once.
import { createServer } from "node:http";

const compileMs = Number(process.env.COMPILE_APP_MS ?? "9000");
let compiled;

const compile = () => {
  console.log("○ Compiling / ...");
  return new Promise((resolve) =>
    setTimeout(() => {
      console.log(`✓ Compiled / in ${compileMs}ms`);
      resolve();
    }, compileMs),
  );
};

createServer(async (request, response) => {
  response.writeHead(200, { "content-type": "text/html" });
  response.write("<!doctype html><title>compile app</title>");
  compiled ??= compile();
  await compiled;
  response.end("<h1>compiled page</h1>");
}).listen(Number(process.env.PORT), "127.0.0.1", () => console.log("ready on 127.0.0.1"));
