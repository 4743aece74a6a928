import { describe, expect, it } from "vitest";
import { notableLine } from "./notable-line.ts";

describe("a notable line of an app's output", () => {
  it("is a warning or an error as servers and frameworks print them, and not a plain request", () => {
    const notable = [
      "[browser] ⨯ unhandledRejection: SyntaxError: Unexpected token 'H', \"Hello\" is not valid JSON",
      "TypeError: Cannot read properties of undefined (reading 'map')",
      " ⚠ Blocked cross-origin request to /_next/webpack-hmr",
      "Failed to download font Inter from fonts.googleapis.com: ENOTFOUND",
      "npm error code EOVERRIDE",
      "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'pg'",
    ];
    const plain = [
      " GET / 200 in 554ms",
      "✓ Ready in 1457ms",
      "orders worker ready (schema 0000_create_orders)",
      "○ Compiling /api/chat ...",
    ];
    expect(notable.filter((line) => !notableLine.test(line))).toEqual([]);
    expect(plain.filter((line) => notableLine.test(line))).toEqual([]);
  });
});
