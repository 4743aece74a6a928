import { RuleTester } from "eslint";
import { describe, it } from "vitest";
// @ts-expect-error The plugin is plain JavaScript, loaded by eslint.config.js.
import { testHygiene } from "./test-hygiene.js";

RuleTester.describe = describe;
RuleTester.it = it;
const tester = new RuleTester({ languageOptions: { ecmaVersion: 2024, sourceType: "module" } });
const rules = testHygiene.rules;

tester.run("no-wall-clock", rules["no-wall-clock"], {
  valid: ["const when = new Date(0);", "clock.now();"],
  invalid: [
    { code: "const start = Date.now();", errors: [{ messageId: "wallClock" }] },
    { code: "const took = performance.now() - start;", errors: [{ messageId: "wallClock" }] },
  ],
});

tester.run("no-real-time-wait", rules["no-real-time-wait"], {
  valid: ["await expect(button).toBeHidden();", "await Effect.runPromise(TestClock.adjust('1 second'));"],
  invalid: [
    { code: "await new Promise((resolve) => setTimeout(resolve, 100));", errors: [{ messageId: "realTimeWait" }] },
    { code: "await page.waitForTimeout(500);", errors: [{ messageId: "realTimeWait" }] },
    { code: "await sleep(10);", errors: [{ messageId: "realTimeWait" }] },
    { code: "setInterval(check, 50);", errors: [{ messageId: "realTimeWait" }] },
  ],
});

tester.run("no-test-timeout-or-retries", rules["no-test-timeout-or-retries"], {
  valid: ["test('a', async () => {});", "it('b', () => {}, );", "test.describe.configure({ mode: 'serial' });"],
  invalid: [
    { code: "test.setTimeout(120000);", errors: [{ messageId: "timeout" }] },
    { code: "test.slow();", errors: [{ messageId: "timeout" }] },
    { code: "it('a', async () => {}, 30000);", errors: [{ messageId: "timeout" }] },
    { code: "it('a', { timeout: 30000 }, async () => {});", errors: [{ messageId: "timeout" }] },
    { code: "test.describe.configure({ retries: 2 });", errors: [{ messageId: "retries" }] },
    { code: "it('a', { retry: 3 }, () => {});", errors: [{ messageId: "timeout" }] },
    { code: "vi.setConfig({ testTimeout: 1 });", errors: [{ messageId: "timeout" }] },
  ],
});

tester.run("no-unreasoned-skip", rules["no-unreasoned-skip"], {
  valid: ["// quarantine: the fixture app needs Node 22 (unskip when CI runs 22)\ntest.skip('a', () => {});", "test('a', () => {});"],
  invalid: [
    { code: "test.skip('a', () => {});", errors: [{ messageId: "skip" }] },
    { code: "it.todo('b');", errors: [{ messageId: "skip" }] },
    { code: "test.describe.skip('c', () => {});", errors: [{ messageId: "skip" }] },
    { code: "test.fixme('d', () => {});", errors: [{ messageId: "skip" }] },
  ],
});
